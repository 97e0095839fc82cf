import { afterEach, describe, expect, it } from "vitest";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
} from "@/tests/support/money";
import { statementsDuring } from "@/tests/support/round-trips";
import { enrolTotp, freshTotpCode, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { expectMoneyConsistent } from "@/tests/support/transfer-invariants";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// A payment by $tag, and a money request paid, as one call of pay_by_tag (decision 050): one statement from
// Node, one transaction, one event row; the notifications after the commit in the jobs room. The consumers
// sleep until a test drains them and no schedule runner polls, so the statements counted are the payment's
// own and the rollback test picks its moment.
const t = setUpTestApp(
  { RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" },
  { jobs: { consumerEveryMs: 600_000, consumerWakeDelayMs: 600_000 }, scheduleRunner: false },
);
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(async () => {
  await expectMoneyConsistent(t.database);
});

let keyCounter = 0;
const pay = (from: SignedInUser, body: Record<string, unknown>, key = `fn-${++keyCounter}`) =>
  t.app.inject({
    method: "POST",
    url: "/api/transfer/tag-payments",
    headers: { cookie: from.cookie, "idempotency-key": key },
    payload: body,
  });
const payRequest = (who: SignedInUser, id: string, key = `fn-req-${++keyCounter}`) =>
  t.app.inject({
    method: "POST",
    url: `/api/transfer/requests/${id}/pay`,
    headers: { cookie: who.cookie, "idempotency-key": key },
    payload: {},
  });
const tagOf = (who: SignedInUser) => `$${who.user.pillarTag}`;
const balanceOf = async (who: SignedInUser) =>
  Number(
    (
      await t.database.query<{ balance: string }>(
        "select balance::text as balance from ledger_accounts where user_id = $1",
        [who.user.id],
      )
    )[0]?.balance ?? 0,
  );
const notificationsOf = (who: SignedInUser) =>
  t.database.query<{ kind: string; title: string }>(
    "select kind, title from notifications where user_id = $1 order by created_at, id",
    [who.user.id],
  );
/** A signed-in request that leaves the session in the app's cache (decision 002). */
const warmSession = async (who: SignedInUser) => {
  const res = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: who.cookie } });
  expect(res.statusCode).toBe(200);
};

describe("pay_by_tag", () => {
  it("is one statement from Node with a cached session, and writes one event for both parties", async () => {
    const payer = await createFundedCustomer(t, admin, "50.00");
    const payee = await createApprovedCustomer(t.database);
    await t.app.jobs.drainConsumers();
    const historyNotices = async (who: SignedInUser) =>
      (
        await t.database.query(
          "select 1 from user_events where user_id = $1 and 'transactions' = any(topics)",
          [who.user.id],
        )
      ).length;
    const before = [await historyNotices(payer), await historyNotices(payee)];
    await warmSession(payer);
    let res: Awaited<ReturnType<typeof pay>> | undefined;
    // The answer and what follows it in the process: no poll broadcast of its own (the route's pollsToldByEvent:
    // the event's notices reach both parties' polls on every instance), whose pg_notify the session broadcast
    // would send one event-loop turn after the answer.
    const sent = await statementsDuring(t.database, async () => {
      res = await pay(payer, { tag: tagOf(payee), amount: "5.00", note: "Lunch" });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(res!.statusCode, res!.body).toBe(201);
    expect(sent, JSON.stringify(sent)).toHaveLength(1);
    expect(sent[0]).toContain("pay_by_tag(");

    const events = await t.database.query<{
      kind: string;
      user_id: string;
      payload: Record<string, unknown>;
    }>("select kind, user_id, payload from events where kind like 'tag_payment%'");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "tag_payment.made",
      user_id: payer.user.id,
      payload: {
        payment_id: res!.json().payment.id,
        payer_id: payer.user.id,
        payee_id: payee.user.id,
        amount_cents: 500,
        money_request_id: null,
      },
    });
    const notices = events[0]!.payload.notices as { user_id: string; topics: string[] }[];
    expect(new Set(notices.map((n) => n.user_id))).toEqual(new Set([payer.user.id, payee.user.id]));
    for (const notice of notices) expect(notice.topics).toEqual(["summary", "transactions"]);
    // No notice and no notification inside the payment: both come after the commit, one notice each.
    expect([await historyNotices(payer), await historyNotices(payee)]).toEqual(before);
    expect(await notificationsOf(payee)).toEqual([]);
    await t.app.jobs.drainConsumers();
    expect([await historyNotices(payer), await historyNotices(payee)]).toEqual(before.map((n) => n + 1));
  });

  it("pays a money request in one statement too, and marks it paid in the same transaction", async () => {
    const payer = await createFundedCustomer(t, admin, "50.00");
    const requester = await createApprovedCustomer(t.database);
    const ask = await t.app.inject({
      method: "POST",
      url: "/api/transfer/requests",
      headers: { cookie: requester.cookie },
      payload: { tag: tagOf(payer), amount: "6.25", note: "Tickets" },
    });
    expect(ask.statusCode, ask.body).toBe(201);
    const id = ask.json().request.id as string;
    await warmSession(payer);
    let res: Awaited<ReturnType<typeof payRequest>> | undefined;
    const sent = await statementsDuring(t.database, async () => {
      res = await payRequest(payer, id);
    });
    expect(res!.statusCode, res!.body).toBe(201);
    expect(res!.json()).toMatchObject({
      message: "Payment sent",
      payment: {
        amount: "$6.25",
        amountCents: 625,
        toTag: tagOf(requester),
        toName: "Ad*** L.",
        note: "Tickets",
      },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("pay_by_tag(");
    const [request] = await t.database.query<{ status: string; tag_payment_id: string }>(
      "select status, tag_payment_id::text from money_requests where id = $1",
      [id],
    );
    expect(request).toEqual({ status: "paid", tag_payment_id: res!.json().payment.id });
    const [event] = await t.database.query<{ payload: { money_request_id: string; notices: unknown[] } }>(
      "select payload from events where kind = 'tag_payment.made' and payload->>'payment_id' = $1",
      [res!.json().payment.id],
    );
    expect(event!.payload.money_request_id).toBe(id);
    expect(event!.payload.notices).toEqual(
      expect.arrayContaining([
        { user_id: payer.user.id, topics: ["requests", "summary", "transactions"] },
        { user_id: requester.user.id, topics: ["requests", "summary", "transactions"] },
      ]),
    );
  });

  it("never overdraws one wallet under racing payments", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payees = await Promise.all(Array.from({ length: 3 }, () => createApprovedCustomer(t.database)));
    const race = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pay(payer, { tag: tagOf(payees[i % 3]!), amount: "30.00" })),
    );
    const codes = race.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 422, 422, 422]);
    for (const r of race.filter((r) => r.statusCode === 422))
      expect(r.json().reason).toBe("insufficient_funds");
    expect(await balanceOf(payer)).toBe(1_000);
  });

  it("does not deadlock when two customers pay each other at once", async () => {
    const alice = await createFundedCustomer(t, admin, "100.00");
    const bob = await createFundedCustomer(t, admin, "100.00");
    const race = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? pay(alice, { tag: tagOf(bob), amount: "7.00" })
          : pay(bob, { tag: tagOf(alice), amount: "3.00" }),
      ),
    );
    expect(race.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(await balanceOf(alice)).toBe(10_000 - 5 * 700 + 5 * 300);
    expect(await balanceOf(bob)).toBe(10_000 + 5 * 700 - 5 * 300);
  });

  it("replays the first answer for the same Idempotency-Key, also when the two arrive at once", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    const [first, second] = await Promise.all([
      pay(payer, { tag: tagOf(payee), amount: "9.99" }, "same-key-at-once"),
      pay(payer, { tag: tagOf(payee), amount: "9.99" }, "same-key-at-once"),
    ]);
    expect([first!.statusCode, second!.statusCode]).toEqual([201, 201]);
    expect(second!.json()).toEqual(first!.json());
    expect([first!.headers["idempotent-replayed"], second!.headers["idempotent-replayed"]].sort()).toEqual([
      "true",
      undefined,
    ]);
    const later = await pay(payer, { tag: tagOf(payee), amount: "9.99" }, "same-key-at-once");
    expect(later.statusCode).toBe(201);
    expect(later.json()).toEqual(first!.json());
    const payments = await t.database.query("select id from tag_payments where payer_id = $1", [
      payer.user.id,
    ]);
    expect(payments).toHaveLength(1);
    expect(await balanceOf(payer)).toBe(10_000 - 999);
  });

  it("records the activity of the cached session it checked, as a transfer's call does", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    await warmSession(payer);
    // The route trusts this cached session without a lookup: only the call can move last_seen_at.
    await t.database.query(
      "update sessions set last_seen_at = now() - interval '2 minutes' where user_id = $1",
      [payer.user.id],
    );
    expect((await pay(payer, { tag: tagOf(payee), amount: "1.00" })).statusCode).toBe(201);
    const [seen] = await t.database.query<{ recent: boolean }>(
      "select last_seen_at > now() - interval '10 seconds' as recent from sessions where user_id = $1",
      [payer.user.id],
    );
    expect(seen!.recent).toBe(true);
  });

  it("refuses a session revoked in the database while this instance still caches it", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    await warmSession(payer);
    // Another instance signed them out: the row is gone, this instance's cache still holds the session.
    await t.database.query("delete from sessions where user_id = $1", [payer.user.id]);
    const res = await pay(payer, { tag: tagOf(payee), amount: "1.00" });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().code).toBe("UNAUTHORIZED");
    expect(await balanceOf(payer)).toBe(10_000);
    expect(await t.database.query("select 1 from tag_payments where payer_id = $1", [payer.user.id])).toEqual(
      [],
    );
    // The cache forgot it too: the next request is signed out at once.
    const next = await t.app.inject({
      method: "GET",
      url: "/api/auth/user",
      headers: { cookie: payer.cookie },
    });
    expect(next.statusCode).toBe(401);
  });

  it("refuses a payment when either side is under a compliance hold, naming no reason", async () => {
    const payer = await createFundedCustomer(t, admin, "20.00");
    const payee = await createApprovedCustomer(t.database);
    const hold = (who: SignedInUser) =>
      t.database.query(
        "insert into compliance_cases (user_id, status, decided_at) values ($1, 'confirmed', now()) returning id",
        [who.user.id],
      );
    const lift = (who: SignedInUser) =>
      t.database.query("delete from compliance_cases where user_id = $1", [who.user.id]);
    for (const held of [payer, payee]) {
      await hold(held);
      const res = await pay(payer, { tag: tagOf(payee), amount: "1.00" });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({
        reason: "compliance_hold",
        message: "This payment can't be made right now. Please contact support.",
      });
      await lift(held);
    }
    expect(await balanceOf(payer)).toBe(2_000);
    expect((await pay(payer, { tag: tagOf(payee), amount: "1.00" })).statusCode).toBe(201);
  });

  it("takes the session's fresh step-up as the second factor, and gives a code back when a later check refuses", async () => {
    const payer = await createFundedCustomer(t, admin, "20.00");
    const payee = await createApprovedCustomer(t.database);
    const { secret } = await enrolTotp(t.app, payer.cookie);
    expect((await pay(payer, { tag: tagOf(payee), amount: "1.00" })).json().reason).toBe("step_up_required");

    // The code is spent in the payment's transaction: refused for the amount, the same code still pays.
    const code = await freshTotpCode(t.database, payer.user.id, secret);
    const tooMuch = await pay(payer, {
      tag: tagOf(payee),
      amount: "50.00",
      secondFactor: { method: "totp", code },
    });
    expect(tooMuch.statusCode, tooMuch.body).toBe(422);
    expect(tooMuch.json().reason).toBe("insufficient_funds");
    const paid = await pay(payer, {
      tag: tagOf(payee),
      amount: "1.00",
      secondFactor: { method: "totp", code },
    });
    expect(paid.statusCode, paid.body).toBe(201);

    // A step-up on this session proves the factor for the next five minutes, checked by the function itself.
    await stepUpWithTotp(t.app, t.database, { id: payer.user.id, cookie: payer.cookie, secret });
    const stepped = await pay(payer, { tag: tagOf(payee), amount: "2.00" });
    expect(stepped.statusCode, stepped.body).toBe(201);
    expect(await balanceOf(payer)).toBe(2_000 - 300);
  });

  it("writes each side's notification once after the commit, even when the consumer's first batch rolls back", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    const requester = await createApprovedCustomer(t.database);
    const ask = await t.app.inject({
      method: "POST",
      url: "/api/transfer/requests",
      headers: { cookie: requester.cookie },
      payload: { tag: tagOf(payer), amount: "4.00" },
    });
    expect(ask.statusCode, ask.body).toBe(201);
    await t.app.jobs.drainConsumers();
    const asked = await notificationsOf(payer);

    expect((await pay(payer, { tag: tagOf(payee), amount: "2.00" })).statusCode).toBe(201);
    expect((await payRequest(payer, ask.json().request.id)).statusCode).toBe(201);
    expect(await notificationsOf(payer)).toEqual(asked);
    expect(await notificationsOf(payee)).toEqual([]);

    // The first notification written after commit fails its batch (a crash mid-batch): none of it stays.
    await t.database.query("create sequence if not exists notification_failures");
    await t.database.query(`create or replace function fail_first_notification() returns trigger
      language plpgsql as $$ begin
        if nextval('notification_failures') = 1 then raise exception 'the first batch fails'; end if;
        return new;
      end $$`);
    await t.database.query(`create trigger fail_first_notification before insert on notifications
      for each row execute function fail_first_notification()`);
    try {
      await expect(t.app.jobs.drainConsumers()).rejects.toThrow(/insert into notifications/);
      expect(await notificationsOf(payee)).toEqual([]);
      await t.app.jobs.drainConsumers();
    } finally {
      await t.database.query("drop trigger fail_first_notification on notifications");
    }
    await t.app.jobs.drainConsumers();
    expect((await notificationsOf(payer)).slice(asked.length)).toEqual([
      { kind: "transfer_status", title: `Paid ${tagOf(payee)}` },
      { kind: "transfer_status", title: `Paid ${tagOf(requester)}` },
    ]);
    expect(await notificationsOf(payee)).toEqual([
      { kind: "money_in", title: `Payment from ${tagOf(payer)}` },
    ]);
    // The requester hears of their request paid, not of a plain payment in.
    expect((await notificationsOf(requester)).map((n) => n.title)).toEqual([
      `${tagOf(payer)} paid your request`,
    ]);
    expect(await t.database.query("select * from job_failures")).toEqual([]);
  });
});
