/**
 * The customers the online tests seed with the scale seeder (scripts/bench/scale/seed.ts): 10,000 by default, small
 * enough for CI; ONLINE_TEST_CUSTOMERS=100000 runs the 100 k step (README, test layers).
 */
export const ONLINE_CUSTOMERS = Number(process.env.ONLINE_TEST_CUSTOMERS ?? 10_000);
