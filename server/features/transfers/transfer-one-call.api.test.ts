import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { hashSessionToken, SESSION_CACHE_MS } from "@/server/lib/session";
import {
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerCleanAfterEach,
  requestTransfer,
} from "@/tests/support/money";
import { statementsDuring } from "@/tests/support/round-trips";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 049: a transfer request is one statement from Node in one transaction; what follows its
// commit (the mail, monitoring, the customer's pushed notice) is the jobs room's, run here only when drained.
const t = setUpTestApp(
  { RATE_LIMIT_SCALE: "100" },
  { scheduleRunner: false, jobs: { consumerEveryMs: 3_600_000, consumerWakeDelayMs: 3_600_000 } },
);
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(() => {
  vi.restoreAllMocks();
});

const tokenOf = (who: SignedInUser) => who.cookie.slice(who.cookie.indexOf("=") + 1);

const transferCount = async (userId: string) =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from transfer_requests where user_id = $1",
      [userId],
    )
  )[0]!.n;

describe("a transfer's round trips", () => {
  it("sends one statement for a transfer from a cached session with no proof: the function's call", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    // The session is in this instance's cache, and the sanctions list the payee is screened against is known.
    expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(201);
    for (const key of [undefined, `one-call-${randomUUID()}`]) {
      const sent = await statementsDuring(t.database, async () => {
        const res = await requestTransfer(t.app, customer, { amount: "1.00" }, key);
        expect(res.statusCode, res.body).toBe(201);
      });
      expect(sent).toEqual([expect.stringContaining("from create_transfer_request($1::jsonb)")]);
    }
  });

  it("stays one statement once the session's cache entry is older than the 5-second cache other routes use", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(201);
    const later = Date.now() + SESSION_CACHE_MS + 1_000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    const sent = await statementsDuring(t.database, async () => {
      expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(201);
    });
    expect(sent).toEqual([expect.stringContaining("from create_transfer_request($1::jsonb)")]);
    // Any other route looks the session up again after 5 seconds.
    const read = await statementsDuring(t.database, async () => {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/auth/user",
        headers: { cookie: customer.cookie },
      });
      expect(res.statusCode).toBe(200);
    });
    expect(read[0]).toContain('from "sessions"');
  });
});

describe("the session, checked by the function", () => {
  it("refuses a transfer from a session revoked in the database while this instance still caches it", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(201);
    const made = await transferCount(customer.user.id);
    // Ended behind this instance's back (another instance signed it out, and its notice was lost).
    await t.database.query("delete from sessions where id_hash = $1", [hashSessionToken(tokenOf(customer))]);
    const refused = await requestTransfer(t.app, customer, { amount: "1.00" }, `revoked-${randomUUID()}`);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ message: AUTH_SERVER_MESSAGES.unauthorized });
    expect(await transferCount(customer.user.id)).toBe(made);
    // Forgotten here at once: the next request is refused before any call.
    expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(401);
  });

  it("refuses one whose session went idle in the database, and records the activity of one in use", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const idHash = hashSessionToken(tokenOf(customer));
    // Cached here first, so only the function can record what follows.
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: customer.cookie } }))
        .statusCode,
    ).toBe(200);
    await t.database.query(
      "update sessions set last_seen_at = now() - interval '2 minutes' where id_hash = $1",
      [idHash],
    );
    expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(201);
    const [seen] = await t.database.query<{ recent: boolean }>(
      "select last_seen_at > now() - interval '10 seconds' as recent from sessions where id_hash = $1",
      [idHash],
    );
    expect(seen!.recent).toBe(true);
    await t.database.query(
      "update sessions set last_seen_at = now() - interval '31 minutes' where id_hash = $1",
      [idHash],
    );
    expect((await requestTransfer(t.app, customer, { amount: "1.00" })).statusCode).toBe(401);
  });
});

describe("after the commit", () => {
  it("tells the customer's screens through the transfer's event and the pushes consumer, not in the request", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    await t.app.jobs.drainConsumers();
    const notices = () =>
      t.database.query<{ topics: string[] }>(
        "select topics from user_events where user_id = $1 order by id",
        [customer.user.id],
      );
    const before = (await notices()).length;
    const res = await requestTransfer(t.app, customer, { amount: "2.00", cryptoAddress: ETH_ADDRESS });
    expect(res.statusCode, res.body).toBe(201);
    const [event] = await t.database.query<{ payload: Record<string, unknown> }>(
      "select payload from events where kind = 'transfer.requested' and user_id = $1 order by id desc limit 1",
      [customer.user.id],
    );
    expect(event!.payload).toMatchObject({
      transfer_id: res.json().transferRequest.id,
      amount_cents: 200,
      fee_cents: 4,
      crypto_address: ETH_ADDRESS,
      recipient_name: "Sam Lee",
      review: [],
      new_device_at: null,
      notices: [{ user_id: customer.user.id, topics: ["summary", "transactions", "transfers"] }],
    });
    expect(await notices()).toHaveLength(before);
    await t.app.jobs.drainConsumers();
    expect((await notices()).slice(before)).toEqual([{ topics: ["summary", "transactions", "transfers"] }]);
  });
});
