import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { ETH_ADDRESS } from "@/tests/support/money";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";
import { startTcpProxy, type TcpProxy } from "@/tests/support/tcp-proxy";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

let scratch: ScratchDatabase;
let proxy: TcpProxy;
let server: ServerProcess;
let customer: SignedInUser;

/** A request that must answer (not hang) well within the test's patience. */
async function timedFetch(url: string, init: RequestInit = {}) {
  const started = Date.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text), ms: Date.now() - started };
}

function sendTransfer(key: string) {
  return timedFetch(`${server.url}/api/transfer/request`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: customer.cookie, "idempotency-key": key },
    body: JSON.stringify({
      amount: "1.00",
      recipientName: "Grace Hopper",
      purpose: "Rent",
      paymentMethod: "crypto",
      cryptoAddress: ETH_ADDRESS,
    }),
  });
}

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  customer = await createVerifiedUser(scratch.database);
  const target = new URL(scratch.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const throughProxy = new URL(scratch.url);
  throughProxy.hostname = "127.0.0.1";
  throughProxy.port = String(proxy.port);
  // A short query timeout keeps the stalled-database case quick; production defaults to 15 s.
  server = await startServer({ DATABASE_URL: throughProxy.toString(), DATABASE_QUERY_TIMEOUT_MS: "3000" });
});

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await scratch?.drop();
});

/** On a failure, what the server said and whether it is still running: the fetch error alone does not tell. */
function reportServerOnFailure() {
  onTestFailed(() => {
    console.error(
      `server exit code: ${server?.child.exitCode}; its last output:\n${server?.output().slice(-6_000)}`,
    );
  });
}

describe("PostgreSQL becoming unreachable", () => {
  it("answers 503 while the database is gone and recovers without a restart once it is back", async () => {
    reportServerOnFailure();
    // The account summary always reads the database (the session itself may come from the 5 s cache).
    const me = () =>
      timedFetch(`${server.url}/api/account/summary`, { headers: { cookie: customer.cookie } });
    expect((await me()).status).toBe(200);

    await proxy.cut();

    const ready = await timedFetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ status: "unavailable" });

    const api = await me();
    expect(api.status, api.text).toBe(503);
    expect(api.json()).toMatchObject({ code: "UNAVAILABLE", message: expect.stringMatching(/unavailable/i) });
    expect(api.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/i);

    const transfer = await sendTransfer("db-down-1");
    expect(transfer.status, transfer.text).toBe(503);

    // Liveness is about the process, not its dependencies: an orchestrator must not restart it for this.
    expect((await timedFetch(`${server.url}/healthz`)).status).toBe(200);

    await proxy.restore();

    await waitFor(
      "/readyz to be 200 again",
      async () => (await timedFetch(`${server.url}/readyz`)).status === 200,
    );
    await waitFor("the API to answer again", async () => (await me()).status === 200);
    expect((await me()).json()).toHaveProperty("balanceCents");
    expect(server.child.exitCode).toBeNull();
  });

  it("does not hang when PostgreSQL stops answering (a partition or a frozen server)", async () => {
    reportServerOnFailure();
    // The account summary always reads the database (the session itself may come from the 5 s cache).
    const me = () =>
      timedFetch(`${server.url}/api/account/summary`, { headers: { cookie: customer.cookie } });
    await waitFor("the API to answer", async () => (await me()).status === 200);

    await proxy.stall();

    const [ready, api, transfer] = await Promise.all([
      timedFetch(`${server.url}/readyz`),
      me(),
      sendTransfer("db-stalled-1"),
    ]);
    expect(ready.status).toBe(503);
    expect(ready.ms, "readyz answers within its own short timeout").toBeLessThan(15_000);
    expect(api.status, api.text).toBe(503);
    expect(api.json()).toMatchObject({ code: "UNAVAILABLE" });
    expect(transfer.status, transfer.text).toBe(503);
    expect((await timedFetch(`${server.url}/healthz`)).status).toBe(200);

    await proxy.restore();
    await waitFor(
      "/readyz to be 200 again",
      async () => (await timedFetch(`${server.url}/readyz`)).status === 200,
    );
    await waitFor("the API to answer again", async () => (await me()).status === 200);
  });
});
