import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncomingPayment } from "@/server/features/payments/incoming-payments";
import { createApprovedCustomer, ETH_ADDRESS } from "@/tests/support/money";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
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

    // Kill once a third has answered, so some requests have their outcome and the rest are mid-flight.
    const killAfter = Math.floor(attempts.length / 3);
    let answered = 0;
    let onAnswer: () => void = () => {};
    const enoughAnswered = new Promise<void>((resolve) => (onAnswer = resolve));
    const inFlight = attempts.map(async (attempt) => {
      try {
        const res = await send(first.url, attempt);
        const body = (await res.json()) as { transferRequest?: { id: string } };
        attempt.first = { status: res.status, transferId: body.transferRequest?.id };
        if (++answered >= killAfter) onAnswer();
      } catch {
        // Cut off by the kill: the client never learned the outcome.
      }
    });
    await Promise.race([enoughAnswered, Promise.all(inFlight)]);
    await first.crash();
    await Promise.all(inFlight);

    const answeredAttempts = attempts.filter((a) => a.first);
    const cutOff = attempts.filter((a) => !a.first);
    expect(answeredAttempts.length).toBeGreaterThanOrEqual(killAfter);
    expect(cutOff.length, "the kill should land while requests are in flight").toBeGreaterThan(0);
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
