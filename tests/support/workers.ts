/** A count of test workers from the environment: `fallback` when unset or not a whole number in 1..max. */
function workersFrom(variable: string, fallback: number, max: number): number {
  const n = Number(process.env[variable] ?? fallback);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}

/**
 * How many API test files run at a time: `API_WORKERS`, default 4 (more than these 2-core machines have cores).
 * An API file mostly waits (PostgreSQL, sockets, timers): one at a time left the cores ~70% idle, and Vitest's
 * own default is one worker per core less one, so one on two cores. Each file has its own database copy, app,
 * ports and key prefixes (tests/support/test-app.ts), so files never see each other's rows.
 */
export const apiWorkers = (): number => workersFrom("API_WORKERS", 4, 16);

/**
 * How many e2e servers, and so how many journey files run at a time: `E2E_WORKERS`, default 2. Each file talks
 * to its worker's server only (tests/e2e/support/server.ts), so files running side by side never share a
 * database, an admin list, a mailbox or a per-IP limit.
 */
export const e2eWorkers = (): number => workersFrom("E2E_WORKERS", 2, 8);
