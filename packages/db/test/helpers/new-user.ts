import type { NewUser } from '../../src/index.ts';

/** A signup's row with the fields a test does not look at filled in. */
export const newUser = (name: string, email: string, plannedServices: string[] = []): NewUser => ({
  name,
  email,
  password_hash: 'x',
  company: null,
  usage_source: 'other',
  referral_source: 'other',
  planned_services: plannedServices,
});
