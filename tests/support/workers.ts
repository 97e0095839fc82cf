/**
 * How many API test files run at a time: `API_WORKERS`, default 4 (more than these 2-core machines have cores).
 * An API file mostly waits (PostgreSQL, sockets, timers): one at a time left the cores ~70% idle, and Vitest's
 * own default is one worker per core less one, so one on two cores. Each file has its own database copy, app,
 * ports and key prefixes (tests/support/test-app.ts), so files never see each other's rows.
 */
export function apiWorkers(): number {
  const n = Number(process.env.API_WORKERS ?? 4);
  return Number.isInteger(n) && n >= 1 && n <= 16 ? n : 4;
}
