import { inject } from "vitest";

/**
 * The e2e server this journey file talks to: global-setup starts one per worker (`E2E_WORKERS`), and a worker
 * runs its files one after another, so a file has its server, database, mailbox and per-IP limits to itself
 * while the file beside it uses another.
 */
export function e2eServer(): { baseUrl: string; mailDir: string; databaseUrl: string } {
  const servers = inject("servers");
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const server = servers[(Number.isInteger(worker) && worker >= 1 ? worker - 1 : 0) % servers.length];
  if (!server) throw new Error("No e2e server was started (tests/e2e/global-setup.ts)");
  return server;
}
