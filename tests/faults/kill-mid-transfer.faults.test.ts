import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncomingPayment } from "@/server/features/credits/incoming-payments";
import { createApprovedCustomer, ETH_ADDRESS } from "@/tests/support/money";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";
import { expectTransfersConsistent } from "@/tests/support/transfer-invariants";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

const CUSTOMERS = 4;
const TRANSFERS_PER_CUSTOMER = 20;

interface Attempt {
  key: string;
  customer: SignedInUser;
  body: Record<string, unknown>;
  /** Set when a response arrived before the kill. */
  first?: { status: number; transferId?: string };
}

let scratch: ScratchDatabase;
let server: ServerProcess | undefined;

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

function send(url: string, attempt: Attempt) {
  return fetch(`${url}/api/transfer/request`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: attempt.customer.cookie,
      "idempotency-key": attempt.key,
    },
    body: JSON.stringify(attempt.body),
  });
}

describe("a server killed with SIGKILL while transfers are in flight", () => {
  it("leaves no partial transfer and honours every idempotency key after a restart", async () => {
    const { database } = scratch;
    const admin = await createAdminUser(database);
    const customers: SignedInUser[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = await createApprovedCustomer(database);
      await createIncomingPayment(database.db, admin.user.id, {
        userId: customer.user.id,
        amount: "1000.00",
        status: "completed",
      });
      customers.push(customer);
    }
    const attempts: Attempt[] = customers.flatMap((customer, c) =>
      Array.from({ length: TRANSFERS_PER_CUSTOMER }, (_, i) => ({
        key: `fault-${c}-${i}-${customer.user.id.slice(0, 8)}`,
        customer,
        body: {
          amount: `${1 + i}.${String(c).padStart(2, "0")}`,
          recipientName: "Grace Hopper",
          purpose: `Fault test ${c}/${i}`,
          paymentMethod: "crypto",
          cryptoAddress: ETH_ADDRESS,
        },
      })),
    );

    server = await startServer({ DATABASE_URL: scratch.url });
    const first = server;

    // The kill must land on requests in flight, whatever the machine's speed: half the customers' wallet rows
    // are locked from the test's own connection, so their transfers cannot finish before the kill, while the
    // other half's all answer. The kill comes once those have answered and the server provably waits on every
    // locked wallet: one call per wallet at a time, the rest gathered behind it (decision 012), so one
    // waiting call per locked wallet in pg_stat_activity.
    const held = customers.slice(0, CUSTOMERS / 2);
    const heldIds = new Set(held.map((c) => c.user.id));
    const free = attempts.filter((a) => !heldIds.has(a.customer.user.id));
    const holder = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query(
        "select id from ledger_accounts where user_id = any($1::uuid[]) and kind = 'wallet' for update",
        [[...heldIds]],
      );
      const inFlight = attempts.map(async (attempt) => {
        try {
          const res = await send(first.url, attempt);
          const body = (await res.json()) as { transferRequest?: { id: string } };
          attempt.first = { status: res.status, transferId: body.transferRequest?.id };
        } catch {
          // Cut off by the kill: the client never learned the outcome.
        }
      });
      await waitFor(
        "the free customers' transfers answered and a call waiting on each locked wallet",
        async () => {
          if (!free.every((a) => a.first)) return false;
          // pg_stat_activity is read once per transaction and kept until it ends: without this the holder's
          // transaction would keep seeing its first snapshot, and waiters that arrive later never show.
          await holder.query("select pg_stat_clear_snapshot()");
          const [row] = (
            await holder.query<{ waiting: number }>(
              "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%create_transfer_request%'",
            )
          ).rows;
          return row!.waiting >= held.length;
        },
        { timeoutMs: 60_000, intervalMs: 20 },
      );
      await first.crash();
      await Promise.all(inFlight);
      await holder.query("rollback");
      // The killed server's calls that were waiting now run to their end in PostgreSQL (nobody to answer):
      // the restart below starts once none is still running.
      await waitFor(
        "the killed server's last calls to end",
        async () => {
          const [row] = (
            await holder.query<{ others: number }>(
              "select count(*)::int as others from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()",
            )
          ).rows;
          return row!.others === 0;
        },
        { timeoutMs: 30_000, intervalMs: 50 },
      );
    } finally {
      await holder.end();
    }

    const answeredAttempts = attempts.filter((a) => a.first);
    const cutOff = attempts.filter((a) => !a.first);
    expect(answeredAttempts.length).toBeGreaterThanOrEqual(free.length);
    expect(cutOff.length, "the kill should land while requests are in flight").toBeGreaterThan(0);
    for (const a of cutOff) expect(heldIds.has(a.customer.user.id), a.key).toBe(true);
    for (const a of answeredAttempts) expect(a.first?.status, a.key).toBe(201);

    server = await startServer({ DATABASE_URL: scratch.url });
    const second = server;

    // Replays: an answered key gives back its first transfer; a cut-off key creates one or returns the one it made.
    for (const attempt of answeredAttempts) {
      const res = await send(second.url, attempt);
      expect(res.status, attempt.key).toBe(201);
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      expect(((await res.json()) as { transferRequest: { id: string } }).transferRequest.id).toBe(
        attempt.first?.transferId,
      );
    }
    const replayedIds = new Map<string, string>();
    let committedUnanswered = 0;
    await Promise.all(
      cutOff.map(async (attempt) => {
        const res = await send(second.url, attempt);
        expect(res.status, attempt.key).toBe(201);
        if (res.headers.get("idempotent-replayed") === "true") committedUnanswered++;
        replayedIds.set(
          attempt.key,
          ((await res.json()) as { transferRequest: { id: string } }).transferRequest.id,
        );
      }),
    );
    console.info(
      `SIGKILL landed with ${answeredAttempts.length} of ${attempts.length} transfers answered; of the ${cutOff.length} cut off, ${committedUnanswered} had committed before the kill`,
    );
    for (const attempt of cutOff) {
      const again = await send(second.url, attempt);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(((await again.json()) as { transferRequest: { id: string } }).transferRequest.id).toBe(
        replayedIds.get(attempt.key),
      );
    }

    // Exactly one transfer per key, each with its key row, its hold and its pending debit, and nothing else.
    const transfers = await database.query<{
      id: string;
      hold_id: string | null;
      transaction_id: string | null;
    }>("select id, hold_id, transaction_id from transfer_requests");
    expect(transfers).toHaveLength(attempts.length);
    const keyed = await database.query<{ key: string; transfer_id: string }>(
      "select key, response->'transferRequest'->>'id' as transfer_id from idempotency_keys",
    );
    expect(new Set(keyed.map((k) => k.transfer_id))).toEqual(new Set(transfers.map((t) => t.id)));
    expect(new Set(keyed.map((k) => k.key))).toEqual(new Set(attempts.map((a) => a.key)));
    await expectTransfersConsistent(database, scratch.url);
  });
});
