// Credit usage of an account (spec §4): what GET /api/auth/usage answers.
import { type TSchema, Type } from '@sinclair/typebox';
import { StringEnum } from './schema-helpers.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const UsageResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    /** Credits of the plan in the window; null when unlimited. */
    totalCredits: Nullable(Type.Integer()),
    used: Type.Integer(),
    limit: Nullable(Type.Integer()),
    remaining: Nullable(Type.Integer()),
    plan: StringEnum(['free', 'pro'] as const),
    window: Type.Object({ days: Type.Integer(), since: Type.String({ format: 'date-time' }) }),
  }),
});
