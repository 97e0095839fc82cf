import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type PostgresBalancer, startPostgresBalancer } from "@/tests/support/haproxy";
import { freePort } from "@/tests/support/server-process";

// The failover suite's balancer, in front of stand-ins for Patroni's REST API: the "leader" is this machine's
// PostgreSQL, the "standbys" are ports nothing listens on, so a connection HAProxy gives a standby fails.
const database = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const checks: http.Server[] = [];
let balancer: PostgresBalancer;

/**
 * A Patroni REST stand-in: GET /primary answers `status` (200 on the leader, 503 on a standby) after `delayMs`,
 * as a busy machine's Patroni does: it widens the time a standby spends going down, so a balancer that reports
 * the leader too early is caught every run.
 */
async function patroniCheck(status: number, delayMs = 0) {
  const server = http.createServer((_req, res) => {
    setTimeout(() => res.writeHead(status).end(), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  checks.push(server);
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  const nodes = [
    { name: "leader", port: Number(database.port || 5432), restPort: await patroniCheck(200) },
    { name: "standby1", port: await freePort(), restPort: await patroniCheck(503, 600) },
    { name: "standby2", port: await freePort(), restPort: await patroniCheck(503, 600) },
  ];
  balancer = await startPostgresBalancer(nodes);
});

afterAll(async () => {
  await balancer?.stop();
  for (const server of checks) server.close();
});

it("names a primary only once no standby can still be given a connection: every session that follows lands on it", async () => {
  // HAProxy starts each checked server UP, and a standby stays routable ("UP 1/2") until its second failed
  // check. A balancer that reported the leader while a standby was still going down gave the next session
  // (round-robin) to that standby: on Patroni, a first write refused as read-only.
  expect(await balancer.primary()).toBe("leader");
  const url = new URL(database);
  url.hostname = "127.0.0.1";
  url.port = String(balancer.port);
  for (let i = 0; i < 6; i++) {
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 2_000 });
    await client.connect();
    const { rows } = await client.query<{ port: number }>("select current_setting('port')::int as port");
    await client.end();
    expect(rows[0]?.port).toBe(Number(database.port || 5432));
  }
});
