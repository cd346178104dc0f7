// Administrator contracts (docs/spec/errors.md): platform overview.
import { Type } from 'typebox';

const Windows = Type.Object({ last24h: Type.Integer(), last7d: Type.Integer(), last30d: Type.Integer() });

export const AdminStatsResponse = Type.Object({
  success: Type.Literal(true),
  stats: Type.Object({
    totalUsers: Type.Integer(),
    newUsers: Windows,
    totalGenerations: Type.Integer(),
    generations: Windows,
  }),
});
