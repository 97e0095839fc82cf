import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncomingPayment } from "@/server/features/credits/incoming-payments";
import { createApprovedCustomer, ETH_ADDRESS } from "@/tests/support/money";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
import { startTcpProxy, type TcpProxy } from "@/tests/support/tcp-proxy";
import { expectTransfersConsistent } from "@/tests/support/transfer-invariants";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

let scratch: ScratchDatabase;
let proxy: TcpProxy;
let server: ServerProcess;
let customer: SignedInUser;

async function sendTransfer(key: string) {
  const res = await fetch(`${server.url}/api/transfer/request`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: customer.cookie, "idempotency-key": key },
    body: JSON.stringify({
      amount: "12.34",
      recipientName: "Grace Hopper",
      purpose: "Unknown outcome",
      paymentMethod: "crypto",
      cryptoAddress: ETH_ADDRESS,
    }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: await res.json() };
}

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  const admin = await createAdminUser(scratch.database);
  customer = await createApprovedCustomer(scratch.database);
  await createIncomingPayment(scratch.database.db, admin.user.id, {
    userId: customer.user.id,
    amount: "100.00",
    status: "completed",
  });
  const target = new URL(scratch.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const throughProxy = new URL(scratch.url);
  throughProxy.hostname = "127.0.0.1";
  throughProxy.port = String(proxy.port);
  // A short query timeout keeps the lost answer quick to notice; production defaults to 15 s.
  server = await startServer({ DATABASE_URL: throughProxy.toString(), DATABASE_QUERY_TIMEOUT_MS: "2000" });
});

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await scratch?.drop();
});

describe("a transfer whose commit outcome the app cannot know (decision 027)", () => {
  it("answers 503 retryable, never a guess, and the retry with the same key replays the transfer that did commit", async () => {
    // The transfer's statement reaches PostgreSQL and commits; its answer never comes back to the app.
    proxy.dropAnswersAfter("create_transfer_request");
    const first = await sendTransfer("unknown-outcome-1");
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: "UNAVAILABLE", retryable: true });
    const [committed] = await scratch.database.query<{ n: string }>(
      "select count(*)::text as n from transfer_requests where user_id = $1",
      [customer.user.id],
    );
    expect(committed!.n, "the statement did commit: the outcome really was unknown to the app").toBe("1");

    // The connection comes back (a failover's new primary would do the same); the pool recovers by itself.
    await proxy.restore();
    const retry = await sendTransfer("unknown-outcome-1");
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe("true");
    const rows = await scratch.database.query<{ id: string }>(
      "select id from transfer_requests where user_id = $1",
      [customer.user.id],
    );
    expect(rows.map((r) => r.id)).toEqual([retry.body.transferRequest.id]);
    await expectTransfersConsistent(scratch.database, scratch.url);
  });
});
