/**
 * The customers the online tests seed with the scale seeder (scripts/bench/scale/seed.ts): 10,000 by default, small
 * enough for CI; ONLINE_TEST_CUSTOMERS=100000 runs the 100 k step (docs/testing.md).
 */
export const ONLINE_CUSTOMERS = Number(process.env.ONLINE_TEST_CUSTOMERS ?? 10_000);

/**
 * A database to copy instead of seeding (`CREATE DATABASE … TEMPLATE`): one the scale bench left at the schema the
 * test starts from, so the 100 k step's hour of seeding is paid once. Unset: a new database, seeded here.
 */
export const ONLINE_TEMPLATE = process.env.ONLINE_TEST_TEMPLATE;
export const createDatabaseSql = (name: string) =>
  ONLINE_TEMPLATE
    ? `create database ${name} template "${ONLINE_TEMPLATE.replace(/"/g, "")}"`
    : `create database ${name}`;
