/**
 * How many e2e servers, and so how many journey files run at a time: `E2E_WORKERS`, default 2. Each file talks
 * to its worker's server only (tests/e2e/support/server.ts), so files running side by side never share a
 * database, an admin list, a mailbox or a per-IP limit.
 */
export function e2eWorkers(): number {
  const n = Number(process.env.E2E_WORKERS ?? 2);
  return Number.isInteger(n) && n >= 1 && n <= 8 ? n : 2;
}
