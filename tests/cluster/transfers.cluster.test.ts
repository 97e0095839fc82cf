import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseMoney } from "@/contract/money";
import { DAILY_LIMIT_CENTS } from "@/contract/transfers";
import { createIncomingPayment } from "@/server/features/credits/incoming-payments";
import { type Cluster, startCluster, tokenOf } from "@/tests/support/cluster";
import { type ClientReply, request } from "@/tests/support/http-client";
import { createApprovedCustomer, ETH_ADDRESS } from "@/tests/support/money";
import { waitFor } from "@/tests/support/server-process";
import { expectTransfersConsistent } from "@/tests/support/transfer-invariants";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

let cluster: Cluster;
let admin: SignedInUser;

beforeAll(async () => {
  // This file races one wallet against its balance and the $2,000 limit; the per-customer request rate and
  // daily count limits (their own API tests) would refuse most of the 100 first, so they are raised here.
  cluster = await startCluster(3, { RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "100000" });
  admin = await createAdminUser(cluster.scratch.database);
});
// Each test starts on three healthy instances, whatever the one before it killed or stopped.
beforeEach(async () => {
  await cluster.ensureHealthy();
});
afterAll(async () => {
  await cluster?.stop();
});

interface Attempt {
  key: string;
  customer: SignedInUser;
  amount: string;
  /** The first answer the app itself gave (not the balancer's 502). */
  answer?: ClientReply;
  tries: number;
  /** How many 503s it was answered before its final answer. */
  unavailable?: number;
}

async function fundedCustomer(amount: string): Promise<SignedInUser> {
  const customer = await createApprovedCustomer(cluster.scratch.database);
  await createIncomingPayment(cluster.scratch.database.db, admin.user.id, {
    userId: customer.user.id,
    amount,
    status: "completed",
  });
  return customer;
}

const transferBody = (amount: string) => ({
  amount,
  recipientName: "Grace Hopper",
  purpose: "Cluster test",
  paymentMethod: "crypto",
  cryptoAddress: ETH_ADDRESS,
});

function postTransfer(attempt: Attempt) {
  return request(cluster.lb.url, "/api/transfer/request", {
    method: "POST",
    headers: { cookie: cluster.cookieFor(tokenOf(attempt.customer.cookie)), "idempotency-key": attempt.key },
    body: transferBody(attempt.amount),
  });
}

/**
 * A careful client: on a dropped connection, the balancer's own 5xx, or the app's 503 "try again shortly"
 * (a request that waited too long for a database connection on an overloaded instance) it sends the same
 * key again.
 */
async function sendUntilAnswered(attempt: Attempt): Promise<ClientReply> {
  for (;;) {
    attempt.tries++;
    try {
      const reply = await postTransfer(attempt);
      if (reply.fromApp && reply.status !== 503) return reply;
      if (reply.status === 503) attempt.unavailable = (attempt.unavailable ?? 0) + 1;
    } catch {
      // Connection reset by the balancer: the outcome is unknown, so the key is retried.
    }
    if (attempt.tries >= 30) throw new Error(`${attempt.key}: no answer after ${attempt.tries} tries`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cents = (amount: string) => parseMoney(amount)!;
const transferId = (reply: ClientReply) =>
  (reply.body as { transferRequest: { id: string } }).transferRequest.id;

function attemptsFor(
  customer: SignedInUser,
  count: number,
  tag: string,
  amountOf: (i: number) => string,
): Attempt[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `${tag}-${i}-${customer.user.id.slice(0, 8)}`,
    customer,
    amount: amountOf(i),
    tries: 0,
  }));
}

/** Checks one wallet's race: refusals only where the cap really was reached, and the rows match the answers. */
async function expectRaceHeld(attempts: Attempt[], capCents: number, refusalFlag: string) {
  const accepted = attempts.filter((a) => a.answer?.status === 201);
  const refused = attempts.filter((a) => a.answer?.status !== 201);
  expect(accepted.length).toBeGreaterThan(0);
  expect(refused.length, "the race should exhaust the wallet").toBeGreaterThan(0);
  const acceptedCents = accepted.reduce((sum, a) => sum + cents(a.amount), 0);
  expect(acceptedCents).toBeLessThanOrEqual(capCents);
  for (const a of refused) {
    expect(a.answer?.status, a.key).toBe(422);
    expect((a.answer!.body as Record<string, unknown>)[refusalFlag], a.key).toBe(true);
    // Refused only if it really did not fit: the total at that moment was at most the final total.
    expect(acceptedCents + cents(a.amount), a.key).toBeGreaterThan(capCents);
  }

  const { database } = cluster.scratch;
  const userId = attempts[0]!.customer.user.id;
  const rows = await database.query<{ id: string }>("select id from transfer_requests where user_id = $1", [
    userId,
  ]);
  expect(new Set(rows.map((r) => r.id))).toEqual(new Set(accepted.map((a) => transferId(a.answer!))));
  const keys = await database.query<{ key: string }>("select key from idempotency_keys where user_id = $1", [
    userId,
  ]);
  expect(new Set(keys.map((k) => k.key))).toEqual(new Set(accepted.map((a) => a.key)));
  const [wallet] = await database.query<{ held: string }>(
    "select held::text from ledger_accounts where user_id = $1 and kind = 'wallet'",
    [userId],
  );
  expect(Number(wallet!.held)).toBe(acceptedCents);
}

describe("three instances behind HAProxy on one PostgreSQL", () => {
  it("lets 100 racing transfers on one wallet, spread over every instance, never pass the daily limit or the balance", async () => {
    // $10.xx to $59.xx each: about $3,500 asked of each wallet.
    const amountOf = (i: number) => `${10 + ((i * 37) % 50)}.${String(i).padStart(2, "0")}`;
    const limited = attemptsFor(await fundedCustomer("5000.00"), 100, "limit", amountOf);
    const thin = attemptsFor(await fundedCustomer("1000.00"), 100, "funds", amountOf);

    await Promise.all(
      [...limited, ...thin].map(async (a) => {
        a.answer = await sendUntilAnswered(a);
      }),
    );

    const shed = [...limited, ...thin].filter((a) => a.unavailable).length;
    if (shed > 0) console.info(`${shed} of 200 racing transfers were answered 503 at first and retried`);
    const servedBy = new Set([...limited, ...thin].map((a) => a.answer?.servedBy));
    expect(servedBy).toEqual(new Set(cluster.instances.map((x) => x.name)));
    await expectRaceHeld(limited, DAILY_LIMIT_CENTS, "withdrawalLimitExceeded");
    await expectRaceHeld(thin, 100_000, "insufficientFunds");
    await expectTransfersConsistent(cluster.scratch.database, cluster.scratch.url);
  });

  it("loses nothing when one instance is SIGKILLed mid-load: retried keys replay and HAProxy routes around it", async () => {
    const { customers, attempts } = await smallTransfers(4, "kill");
    const victim = cluster.instances[1]!;
    await sendInterrupted(customers, attempts, 3, () => victim.server.crash());

    const retried = attempts.filter((a) => a.tries > 1);
    expect(retried.length, "the kill should cut some requests off").toBeGreaterThan(0);
    console.info(
      `SIGKILL of ${victim.name}: ${retried.length} of ${attempts.length} transfers needed a retry`,
    );
    await waitFor(
      `HAProxy to mark ${victim.name} down`,
      async () => (await cluster.lb.backendStatus())[victim.name]?.startsWith("DOWN"),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    // Every key replays its first answer through the balancer, from the instances still alive.
    for (const a of attempts) {
      const again = await postTransfer(a);
      expect(again.status, a.key).toBe(201);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(transferId(again)).toBe(transferId(a.answer!));
      expect(again.servedBy).not.toBe(victim.name);
    }
    await expectOneTransferPerKey(customers, attempts);
  });

  it("drains an instance stopped with SIGTERM mid-load (a rolling deploy): every transfer answered once, none lost", async () => {
    const { customers, attempts } = await smallTransfers(2, "drain");
    const leaving = cluster.instances[2]!;
    await sendInterrupted(customers, attempts, 3, () => leaving.server.stop());

    // It finished its in-flight requests and let the balancer's keep-alive connections go, not the deadline.
    expect(await leaving.server.exited, leaving.server.output()).toBe(0);
    console.info(
      `SIGTERM drain: ${attempts.filter((a) => a.tries > 1).length} of ${attempts.length} retried`,
    );
    await expectOneTransferPerKey(customers, attempts);
  });
});

/** 20 small transfers per customer (well inside balance and limit), each customer funded with $1,000. */
async function smallTransfers(count: number, tag: string) {
  const customers: SignedInUser[] = [];
  for (let c = 0; c < count; c++) customers.push(await fundedCustomer("1000.00"));
  const attempts = customers.flatMap((customer, c) =>
    attemptsFor(customer, 20, `${tag}${c}`, (i) => `${1 + i}.${String(c).padStart(2, "0")}`),
  );
  return { customers, attempts };
}

/**
 * Sends every attempt at once through the balancer and runs `interrupt` while requests are in flight on every
 * instance, then resolves when every key has an answer. Timing alone did not guarantee that (on a quiet
 * machine the interrupted instance could have answered its share already): the customers' wallet rows are
 * locked from the test's own connection until every one of the `liveInstances` has a transfer call waiting on
 * each wallet (an instance sends one call per wallet at a time and gathers the rest behind it, decision 012), so
 * the interrupted one has transfers in flight too; the lock goes once `interrupt` has begun.
 */
async function sendInterrupted(
  customers: SignedInUser[],
  attempts: Attempt[],
  liveInstances: number,
  interrupt: () => Promise<void>,
) {
  const holder = new pg.Client({ connectionString: cluster.scratch.url });
  await holder.connect();
  try {
    await holder.query("begin");
    await holder.query(
      "select id from ledger_accounts where user_id = any($1::uuid[]) and kind = 'wallet' for update",
      [customers.map((c) => c.user.id)],
    );
    const load = Promise.all(
      attempts.map(async (a) => {
        a.answer = await sendUntilAnswered(a);
      }),
    );
    await waitFor(
      "transfers waiting on the locked wallets on every instance",
      async () => {
        // pg_stat_activity is read once per transaction and kept until it ends: the holder's transaction
        // would see its first snapshot for ever (waiters that arrive later never show) without this.
        await holder.query("select pg_stat_clear_snapshot()");
        const [row] = (
          await holder.query<{ waiting: number }>(
            "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%create_transfer_request%'",
          )
        ).rows;
        return row!.waiting >= customers.length * liveInstances;
      },
      // An instance restarted by beforeEach loads the transfer path's modules on its first transfer.
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    const interrupted = interrupt();
    await holder.query("rollback");
    await load;
    await interrupted;
  } finally {
    await holder.end();
  }
  for (const a of attempts) expect(a.answer?.status, `${a.key}: ${JSON.stringify(a.answer?.body)}`).toBe(201);
}

/** Exactly the answered transfers exist, one per key, with their holds and debits; the ledger verifies. */
async function expectOneTransferPerKey(customers: SignedInUser[], attempts: Attempt[]) {
  const { database } = cluster.scratch;
  const rows = await database.query<{ id: string }>(
    "select id from transfer_requests where user_id = any($1::uuid[])",
    [customers.map((c) => c.user.id)],
  );
  expect(rows).toHaveLength(attempts.length);
  expect(new Set(rows.map((r) => r.id))).toEqual(new Set(attempts.map((a) => transferId(a.answer!))));
  await expectTransfersConsistent(database, cluster.scratch.url);
}
