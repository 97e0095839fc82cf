import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerClean,
  expectLedgerCleanAfterEach,
} from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { createTestApp, setUpTestApp, type TestApp } from "@/tests/support/test-app";
import { expectMoneyConsistent } from "@/tests/support/transfer-invariants";
import { createVerifiedUser, type SignedInUser, setUpAdminUser, TEST_PASSWORD } from "@/tests/support/users";

// "Request money" from a $tag (decision 037), from an attacker's side: another customer's requests,
// staff, tags that cannot be paid, wrong types, replays and races; every scenario ends with the ledger check.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(async () => {
  await expectMoneyConsistent(t.database);
});

type Who = Pick<SignedInUser, "cookie">;
const tagOf = (who: SignedInUser) => `$${who.user.pillarTag}`;
const ask = (from: Who, body: unknown, app = t.app) =>
  app.inject({
    method: "POST",
    url: "/api/transfer/requests",
    headers: { cookie: from.cookie },
    payload: body as object,
  });
const list = async (who: Who, direction: "incoming" | "outgoing", before?: string) => {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/transfer/requests?direction=${direction}${before ? `&before=${encodeURIComponent(before)}` : ""}`,
    headers: { cookie: who.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    requests: Array<{ id: string; status: string; otherTag: string }>;
    nextCursor: string | null;
  };
};
let keyCounter = 0;
const payRequest = (who: Who, id: string, body: object = {}, key: string | null = `req-${++keyCounter}`) =>
  t.app.inject({
    method: "POST",
    url: `/api/transfer/requests/${id}/pay`,
    headers: { cookie: who.cookie, ...(key === null ? {} : { "idempotency-key": key }) },
    payload: body,
  });
const act = (who: Who, id: string, action: "decline" | "cancel") =>
  t.app.inject({
    method: "POST",
    url: `/api/transfer/requests/${id}/${action}`,
    headers: { cookie: who.cookie },
  });
const lookUp = (who: Who, tag: string) =>
  t.app.inject({
    method: "GET",
    url: `/api/transfer/tag/${encodeURIComponent(tag)}`,
    headers: { cookie: who.cookie },
  });
const available = async (who: Who) =>
  (await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })).json()
    .availableBalance;
const titles = async (who: Who) =>
  (await t.app.inject({ method: "GET", url: "/api/notifications", headers: { cookie: who.cookie } }))
    .json()
    .items.map((n: { title: string }) => n.title);
const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId: _id, ...rest } = body;
  return rest;
};

/** A request from `requester` to `payer` for `amount`; answers its id. */
async function requestFrom(requester: Who, payer: SignedInUser, amount = "5.00", note?: string) {
  const res = await ask(requester, { tag: tagOf(payer), amount, ...(note ? { note } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().request.id as string;
}

describe("asking a customer for money by $tag", () => {
  it("shows the request to both sides, tells the payer, and raises a notice on both streams", async () => {
    const requester = await createApprovedCustomer(t.database, { firstName: "Morgan", lastName: "asker" });
    const payer = await createApprovedCustomer(t.database, { firstName: "Jordan", lastName: "rivera" });
    const res = await ask(requester, { tag: tagOf(payer).toUpperCase(), amount: "12.50", note: "Tickets" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: "Request sent",
      request: {
        direction: "outgoing",
        otherTag: tagOf(payer),
        otherName: "Jo*** R.",
        amount: "$12.50",
        amountCents: 1250,
        note: "Tickets",
        status: "open",
        decidedAt: null,
      },
    });
    const id = res.json().request.id;
    const incoming = await list(payer, "incoming");
    expect(incoming.requests).toEqual([
      expect.objectContaining({
        id,
        direction: "incoming",
        otherTag: tagOf(requester),
        otherName: "Mo*** A.",
        status: "open",
      }),
    ]);
    expect((await list(payer, "outgoing")).requests).toEqual([]);
    expect((await list(requester, "outgoing")).requests.map((r) => r.id)).toEqual([id]);
    expect(await titles(payer)).toContain(`${tagOf(requester)} requested $12.50`);
    // Both parties' open screens are told (user-events.sql): a "requests" notice each.
    for (const who of [requester, payer]) {
      const rows = await t.database.query(
        "select topics from user_events where user_id = $1 and 'requests' = any(topics)",
        [who.user.id],
      );
      expect(rows.length, who.user.email).toBeGreaterThanOrEqual(1);
    }
  });

  it("answers every tag that cannot be asked exactly like the tag lookup (no account discovery)", async () => {
    const requester = await createApprovedCustomer(t.database);
    const notOpen = await createVerifiedUser(t.database);
    const frozen = await createApprovedCustomer(t.database);
    await t.database.query("update users set frozen_at = now() where id = $1", [frozen.user.id]);
    const misses = [
      "$nobody_here_at_all",
      tagOf(notOpen),
      tagOf(frozen),
      tagOf(admin),
      "'; drop table users; --",
      "$a",
    ];
    for (const tag of misses) {
      const asked = await ask(requester, { tag, amount: "1" });
      const looked = await lookUp(requester, tag);
      expect(asked.statusCode, tag).toBe(404);
      expect(withoutRequestId(asked.json()), tag).toEqual(withoutRequestId(looked.json()));
      expect(asked.json().reason).toBe("tag_unavailable");
    }
    const count = await t.database.query(
      "select count(*)::int as n from money_requests where requester_id = $1",
      [requester.user.id],
    );
    expect(count[0]!.n).toBe(0);
    const self = await ask(requester, { tag: tagOf(requester), amount: "1" });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({
      reason: "self_payment",
      message: "You cannot request money from your own $tag",
    });
  });

  it("refuses staff, a requester whose account is not open, and a frozen requester", async () => {
    const payer = await createApprovedCustomer(t.database);
    const staff = await ask(admin, { tag: tagOf(payer), amount: "1" });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().reason).toBe("staff_account");
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/api/transfer/requests",
          headers: { cookie: admin.cookie },
        })
      ).statusCode,
    ).toBe(403);

    const notOpen = await createVerifiedUser(t.database);
    const early = await ask(notOpen, { tag: tagOf(payer), amount: "1" });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({
      reason: "setup_incomplete",
      message: "Open your account before requesting money",
    });

    const frozen = await createApprovedCustomer(t.database);
    await t.database.query("update users set frozen_at = now() where id = $1", [frozen.user.id]);
    const cold = await ask(frozen, { tag: tagOf(payer), amount: "1" });
    expect(cold.statusCode).toBe(403);
    expect(cold.json().reason).toBe("account_frozen");
  });

  it.each([
    [{ tag: "$x", amount: "0" }, "Amount must be greater than $0"],
    [{ tag: "$x", amount: "-1" }, "Amount must be greater than $0"],
    [{ tag: "$x", amount: "1.001" }, "Amount must be a dollar amount with at most 2 decimals"],
    [{ tag: "$x", amount: "2000.01" }, "A request can be at most $2,000.00, the daily sending limit"],
    [{ tag: "$x", amount: "99999999999999999999" }, /amount/i],
    [{ tag: "$x", amount: { $gt: 0 } }, /amount/i],
    [{ tag: ["$x"], amount: "1" }, /tag/i],
    [{ tag: "$x", amount: "1", payerId: "someone" }, /unrecognized|payerId/i],
    [{ tag: "$x".repeat(50), amount: "1" }, /tag/i],
    [{ tag: "$x", amount: "1", note: "n".repeat(141) }, "A note can be at most 140 characters"],
    [{ tag: "$x", amount: "1", note: "n".repeat(100_000) }, "A note can be at most 140 characters"],
  ])("refuses %j", async (body, message) => {
    const requester = await createApprovedCustomer(t.database);
    const res = await ask(requester, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it("caps the open requests to one $tag, and rate-limits creation per customer", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database);
    for (let i = 0; i < 3; i++) await requestFrom(requester, payer, "1");
    const fourth = await ask(requester, { tag: tagOf(payer), amount: "1" });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ reason: "too_many_money_requests", tooManyMoneyRequests: true });
    // Racing past the cap does not work either: the creations take both wallets' locks.
    const other = await createApprovedCustomer(t.database);
    const race = await Promise.all(
      Array.from({ length: 6 }, () => ask(requester, { tag: tagOf(other), amount: "1" })),
    );
    expect(race.filter((r) => r.statusCode === 201).length).toBe(3);

    const slow: TestApp = await createTestApp({ RATE_LIMIT_SCALE: "1" });
    try {
      const spammer = await createApprovedCustomer(slow.database);
      const codes = [];
      for (let i = 0; i < 7; i++)
        codes.push((await ask(spammer, { tag: "$nobody_here", amount: "1" }, slow.app)).statusCode);
      expect(codes.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
      expect(codes.at(-1)).toBe(429);
    } finally {
      await slow.close();
    }
  });

  it("pages by keyset, newest first", async () => {
    const payer = await createApprovedCustomer(t.database);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const requester = await createApprovedCustomer(t.database);
      for (let j = 0; j < 3; j++) ids.push(await requestFrom(requester, payer, `${i + 1}.0${j}`));
    }
    const first = await list(payer, "incoming");
    expect(first.requests.length).toBe(20);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(payer, "incoming", first.nextCursor!);
    expect(second.requests.length).toBe(4);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.requests, ...second.requests].map((r) => r.id))).toEqual(new Set(ids));
    const bad = await t.app.inject({
      method: "GET",
      url: "/api/transfer/requests?direction=incoming&before=1'or'1",
      headers: { cookie: payer.cookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("paying, declining and cancelling a request", () => {
  it("pays through the tag payment path: money moves once, the requester sees paid, and a replay is the same payment", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createFundedCustomer(t, admin, "100.00");
    const id = await requestFrom(requester, payer, "12.50", "Tickets");
    const paid = await payRequest(payer, id, {}, "pay-once");
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({
      message: "Payment sent",
      payment: { amount: "$12.50", toTag: tagOf(requester), note: "Tickets" },
    });
    const replay = await payRequest(payer, id, {}, "pay-once");
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().payment.id).toBe(paid.json().payment.id);
    const again = await payRequest(payer, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      reason: "money_request_closed",
      moneyRequestClosed: true,
      moneyRequestStatus: "paid",
      message: "This request has already been paid",
    });
    expect(await available(payer)).toBe("$87.50");
    expect(await available(requester)).toBe("$12.50");
    expect((await list(requester, "outgoing")).requests[0]).toMatchObject({ id, status: "paid" });
    expect((await list(payer, "incoming")).requests[0]).toMatchObject({ id, status: "paid" });
    // It is a tag payment like any other: it counts toward the payer's day.
    const limits = await t.app.inject({
      method: "GET",
      url: "/api/transfer/limits",
      headers: { cookie: payer.cookie },
    });
    expect(limits.json().usedTodayCents).toBe(1250);
    await t.app.jobs.drainConsumers();
    expect(await titles(requester)).toContain(`${tagOf(payer)} paid your request`);
    expect(await titles(requester)).not.toContain(`Payment from ${tagOf(payer)}`);
    // A request can no longer be cancelled or declined once paid.
    expect((await act(requester, id, "cancel")).json().reason).toBe("money_request_closed");
    expect((await act(payer, id, "decline")).json().reason).toBe("money_request_closed");
    // The key of one request cannot replay onto another.
    const other = await requestFrom(requester, payer, "1");
    expect((await payRequest(payer, other, {}, "pay-once")).statusCode).toBe(409);
  });

  it("is paid once when two pays race (different keys), and the ledger holds", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createFundedCustomer(t, admin, "100.00");
    const id = await requestFrom(requester, payer, "30.00");
    const race = await Promise.all([payRequest(payer, id), payRequest(payer, id), payRequest(payer, id)]);
    const codes = race.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    for (const r of race.filter((r) => r.statusCode === 409))
      expect(r.json().reason).toBe("money_request_closed");
    const payments = await t.database.query(
      "select count(*)::int as n from tag_payments where payer_id = $1",
      [payer.user.id],
    );
    expect(payments[0]!.n).toBe(1);
    expect(await available(payer)).toBe("$70.00");
    expect(await available(requester)).toBe("$30.00");
    await expectLedgerClean(t.database);
  });

  it("answers another customer's request, staff, a bad id and the wrong side with the same 404", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createFundedCustomer(t, admin, "100.00");
    const stranger = await createFundedCustomer(t, admin, "100.00");
    const id = await requestFrom(requester, payer, "5");
    const cases: Array<[Who, string, "pay" | "decline" | "cancel"]> = [
      [stranger, id, "pay"],
      [stranger, id, "decline"],
      [stranger, id, "cancel"],
      [requester, id, "pay"],
      [requester, id, "decline"],
      [payer, id, "cancel"],
      [admin, id, "pay"],
      [admin, id, "decline"],
      [admin, id, "cancel"],
      [payer, randomUUID(), "pay"],
      [payer, randomUUID(), "decline"],
    ];
    for (const [who, reqId, action] of cases) {
      const res = action === "pay" ? await payRequest(who, reqId) : await act(who, reqId, action);
      expect(res.statusCode, `${action} ${res.body}`).toBe(404);
      expect(res.json().message).toBe("Request not found");
    }
    expect((await act(payer, "not-a-uuid", "decline")).statusCode).toBe(400);
    expect((await payRequest(payer, "../../tag-payments")).statusCode).toBe(404);
    expect((await payRequest(payer, id, { secondFactor: "x" })).statusCode).toBe(400);
    expect((await payRequest(payer, id, { amount: "0.01" })).statusCode).toBe(400);
    expect((await payRequest(payer, id, {}, null)).json().reason).toBe("idempotency_key_required");
    expect((await list(stranger, "incoming")).requests).toEqual([]);
    // Nothing moved and the request is still open for its payer.
    expect(await available(stranger)).toBe("$100.00");
    expect(await available(requester)).toBe("$0.00");
    expect((await list(payer, "incoming")).requests[0]).toMatchObject({ id, status: "open" });
  });

  it("lets the payer decline (the requester is told) and the requester cancel; neither can then be paid", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createFundedCustomer(t, admin, "100.00");
    const declinedId = await requestFrom(requester, payer, "5");
    const declined = await act(payer, declinedId, "decline");
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ message: "Request declined", request: { status: "declined" } });
    expect(declined.json().request.decidedAt).not.toBeNull();
    expect((await list(requester, "outgoing")).requests[0]).toMatchObject({
      id: declinedId,
      status: "declined",
    });
    expect(await titles(requester)).toContain(`${tagOf(payer)} declined your request`);
    expect((await payRequest(payer, declinedId)).json()).toMatchObject({
      reason: "money_request_closed",
      message: "This request was declined",
    });
    expect((await act(requester, declinedId, "cancel")).statusCode).toBe(409);

    const cancelledId = await requestFrom(requester, payer, "6");
    const cancelled = await act(requester, cancelledId, "cancel");
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().request.status).toBe("cancelled");
    expect((await list(payer, "incoming")).requests.find((r) => r.id === cancelledId)?.status).toBe(
      "cancelled",
    );
    expect((await payRequest(payer, cancelledId)).json()).toMatchObject({
      reason: "money_request_closed",
      message: "This request was cancelled",
    });
    // A cancel racing a pay: one wins, never both.
    const racedId = await requestFrom(requester, payer, "7");
    const [paid, withdrawn] = await Promise.all([
      payRequest(payer, racedId),
      act(requester, racedId, "cancel"),
    ]);
    expect([paid.statusCode, withdrawn.statusCode].sort()).toEqual(
      paid.statusCode === 201 ? [201, 409] : [200, 409],
    );
    const expected = paid.statusCode === 201 ? "$93.00" : "$100.00";
    expect(await available(payer)).toBe(expected);
    await expectLedgerClean(t.database);
  });

  it("keeps the payment's rules (funds, freeze, the requester no longer payable, step-up), not the payer's crypto-send block", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createFundedCustomer(t, admin, "10.00");
    const big = await requestFrom(requester, payer, "50");
    const poor = await payRequest(payer, big);
    expect(poor.statusCode).toBe(422);
    expect(poor.json().reason).toBe("insufficient_funds");
    expect((await list(payer, "incoming")).requests[0]).toMatchObject({ id: big, status: "open" });

    const small = await requestFrom(requester, payer, "1");
    // The requester froze after asking: they can no longer be paid, answered like any unpayable tag.
    await t.database.query("update users set frozen_at = now() where id = $1", [requester.user.id]);
    const toFrozen = await payRequest(payer, small);
    expect(toFrozen.statusCode).toBe(404);
    expect(toFrozen.json().reason).toBe("tag_unavailable");
    await t.database.query("update users set frozen_at = null where id = $1", [requester.user.id]);

    const { secret } = await enrolTotp(t.app, payer.cookie);
    const bare = await payRequest(payer, small);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().reason).toBe("step_up_required");
    const code = await freshTotpCode(t.database, payer.user.id, secret);
    const ok = await payRequest(payer, small, { secondFactor: { method: "totp", code } });
    expect(ok.statusCode, ok.body).toBe(201);

    const blocked = await createFundedCustomer(t, admin, "10.00");
    const third = await requestFrom(requester, blocked, "1");
    await t.app.inject({
      method: "PUT",
      url: "/api/transfer/self-limits/send-block",
      headers: { cookie: blocked.cookie },
      payload: { on: true, cooldown: "24 hours", password: TEST_PASSWORD },
    });
    // The payer's own crypto-send block covers USDC leaving the bank, not paying a request (decision 047).
    const whileBlocked = await payRequest(blocked, third);
    expect(whileBlocked.statusCode, whileBlocked.body).toBe(201);
    expect((await list(requester, "outgoing")).requests.find((r) => r.id === third)?.status).toBe("paid");
    expect(await available(requester)).toBe("$2.00");
    const fourth = await requestFrom(requester, blocked, "1");
    await t.database.query("update users set frozen_at = now() where id = $1", [blocked.user.id]);
    expect((await payRequest(blocked, fourth)).json().reason).toBe("account_frozen");
    expect((await list(requester, "outgoing")).requests.find((r) => r.id === fourth)?.status).toBe("open");
    expect(await available(requester)).toBe("$2.00");
  });
});

const block = (who: Who, requestId: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/transfer/requests/${requestId}/block`,
    headers: { cookie: who.cookie },
  });
const unblock = (who: Who, blockId: string) =>
  t.app.inject({
    method: "DELETE",
    url: `/api/transfer/request-blocks/${blockId}`,
    headers: { cookie: who.cookie },
  });
const blocks = async (who: Who) => {
  const res = await t.app.inject({
    method: "GET",
    url: "/api/transfer/request-blocks",
    headers: { cookie: who.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    blocks: Array<{ id: string; tag: string; name: string }>;
    nextCursor: string | null;
  };
};
/** An answer to a request's creation, without what names the payer or differs between any two requests. */
const shapeOf = (res: { json(): { message: string; request: Record<string, unknown> } }) => {
  const { message, request } = res.json();
  const { id: _id, createdAt: _at, otherTag: _tag, otherName: _name, ...rest } = request;
  return { message, request: rest, fields: Object.keys(request).sort() };
};

describe("blocking a requester (decision 037)", () => {
  it("withholds a blocked requester's requests from the payer while the requester sees them as sent and waiting", async () => {
    const requester = await createApprovedCustomer(t.database, { firstName: "Harper", lastName: "pest" });
    const payer = await createFundedCustomer(t, admin, "50.00");
    const earlier = await requestFrom(requester, payer, "4.00");
    expect((await act(payer, earlier, "decline")).statusCode).toBe(200);
    const first = await requestFrom(requester, payer, "5.00", "pay me");
    const second = await requestFrom(requester, payer, "6.00");
    const blocked = await block(payer, first);
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({
      message: `${tagOf(requester)} can no longer send you requests`,
      block: { tag: tagOf(requester), name: "Ha*** P." },
    });
    // Blocking twice (from a request they still see, the declined one) is the same block.
    expect((await block(payer, earlier)).json().block.id).toBe(blocked.json().block.id);
    expect((await blocks(payer)).blocks.map((b) => b.tag)).toEqual([tagOf(requester)]);

    // Their open requests left the payer's list; the requester still sees them waiting.
    expect((await list(payer, "incoming")).requests.map((r) => r.id)).toEqual([earlier]);
    expect((await list(requester, "outgoing")).requests.map((r) => r.status)).toEqual([
      "open",
      "open",
      "declined",
    ]);

    // A new request (on a new day: three were asked today) is answered exactly as an unblocked one, and reaches
    // the payer in no way.
    await t.database.query(
      "update money_requests set created_at = created_at - interval '1 day' where requester_id = $1",
      [requester.user.id],
    );
    const before = await titles(payer);
    const other = await createApprovedCustomer(t.database);
    const shadow = await ask(requester, { tag: tagOf(payer), amount: "7.00", note: "last chance" });
    const normal = await ask(requester, { tag: tagOf(other), amount: "7.00", note: "last chance" });
    expect(shadow.statusCode).toBe(201);
    expect(shapeOf(shadow)).toEqual(shapeOf(normal));
    expect(shadow.json().request).toMatchObject({ status: "open", otherTag: tagOf(payer) });
    expect((await list(payer, "incoming")).requests.map((r) => r.id)).toEqual([earlier]);
    expect(await titles(payer)).toEqual(before);
    // The payer cannot reach a withheld request by its id either; it stays the requester's to cancel.
    const shadowId = shadow.json().request.id;
    expect((await payRequest(payer, shadowId)).statusCode).toBe(404);
    expect((await act(payer, shadowId, "decline")).statusCode).toBe(404);
    expect((await block(payer, shadowId)).statusCode).toBe(404);
    expect(await available(payer)).toBe("$50.00");
    expect((await act(requester, shadowId, "cancel")).statusCode).toBe(200);

    // Unblocked: new requests arrive again; those withheld stay withheld (no backlog delivered).
    const unblocked = await unblock(payer, blocked.json().block.id);
    expect(unblocked.statusCode, unblocked.body).toBe(200);
    expect(unblocked.json().message).toBe(`${tagOf(requester)} can send you requests again`);
    expect((await blocks(payer)).blocks).toEqual([]);
    await t.database.query(
      "update money_requests set created_at = now() - interval '2 days' where requester_id = $1",
      [requester.user.id],
    );
    await act(requester, first, "cancel");
    const after = await requestFrom(requester, payer, "8.00");
    expect((await list(payer, "incoming")).requests.map((r) => r.id)).toEqual([after, earlier]);
    expect(await titles(payer)).toContain(`${tagOf(requester)} requested $8.00`);
    expect((await list(requester, "outgoing")).requests.find((r) => r.id === second)?.status).toBe("open");
    await expectLedgerClean(t.database);
  });

  it("lets only the payer block from a request, and only the blocker unblock (another customer's ids, staff)", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database);
    const stranger = await createApprovedCustomer(t.database);
    const id = await requestFrom(requester, payer, "5");
    const blockCount = async () =>
      (await t.database.query<{ n: number }>("select count(*)::int as n from money_request_blocks"))[0]!.n;
    const before = await blockCount();
    for (const who of [stranger, requester, admin]) {
      const res = await block(who, id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe("Request not found");
    }
    expect((await block(payer, randomUUID())).statusCode).toBe(404);
    expect((await block(payer, "not-a-uuid")).statusCode).toBe(400);
    expect(await blockCount()).toBe(before);
    // The requester was not blocked by any of those: the payer still sees their request.
    expect((await list(payer, "incoming")).requests.map((r) => r.id)).toEqual([id]);

    const blockId = (await block(payer, id)).json().block.id as string;
    for (const who of [stranger, requester, admin]) {
      const res = await unblock(who, blockId);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().message).toBe("Blocked requester not found");
    }
    expect((await unblock(payer, randomUUID())).statusCode).toBe(404);
    expect((await unblock(payer, "'; delete from money_request_blocks; --")).statusCode).toBe(400);
    expect((await blocks(stranger)).blocks).toEqual([]);
    expect((await blocks(requester)).blocks).toEqual([]);
    expect((await blocks(payer)).blocks.map((b) => b.id)).toEqual([blockId]);
    const staffList = await t.app.inject({
      method: "GET",
      url: "/api/transfer/request-blocks",
      headers: { cookie: admin.cookie },
    });
    expect(staffList.statusCode).toBe(403);
    expect((await unblock(payer, blockId)).statusCode).toBe(200);
    expect((await unblock(payer, blockId)).statusCode).toBe(404);
  });
});

describe("the daily cap of requests to one payer (decision 037)", () => {
  it(`lets one requester ask the same $tag ${3} times a New York day, whatever became of the requests`, async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database);
    for (let i = 0; i < 3; i++) await act(requester, await requestFrom(requester, payer, "1"), "cancel");
    const fourth = await ask(requester, { tag: tagOf(payer), amount: "1" });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({
      reason: "money_request_daily_cap",
      moneyRequestDailyCap: true,
      message: "You can send at most 3 requests a day to the same $tag. Try again tomorrow.",
    });
    // Another payer, and another requester to this payer, are not affected.
    await requestFrom(requester, await createApprovedCustomer(t.database), "1");
    await requestFrom(await createApprovedCustomer(t.database), payer, "1");
    // Yesterday's requests (New York day) no longer count.
    await t.database.query(
      "update money_requests set created_at = created_at - interval '1 day' where requester_id = $1 and payer_id = $2",
      [requester.user.id, payer.user.id],
    );
    await requestFrom(requester, payer, "1");
  });

  it("holds when requests race, and answers a blocked requester the same way", async () => {
    const requester = await createApprovedCustomer(t.database);
    const payer = await createApprovedCustomer(t.database);
    const first = await requestFrom(requester, payer, "1");
    await act(requester, first, "cancel");
    await act(requester, await requestFrom(requester, payer, "1"), "cancel");
    const race = await Promise.all(
      Array.from({ length: 5 }, () => ask(requester, { tag: tagOf(payer), amount: "1" })),
    );
    expect(race.filter((r) => r.statusCode === 201).length).toBe(1);
    for (const r of race.filter((r) => r.statusCode !== 201))
      expect(r.json().reason).toBe("money_request_daily_cap");

    const pest = await createApprovedCustomer(t.database);
    const target = await createApprovedCustomer(t.database);
    const asked = await requestFrom(pest, target, "1");
    expect((await block(target, asked)).statusCode).toBe(200);
    await act(pest, asked, "cancel");
    await act(pest, await requestFrom(pest, target, "1"), "cancel");
    await act(pest, await requestFrom(pest, target, "1"), "cancel");
    const capped = await ask(pest, { tag: tagOf(target), amount: "1" });
    expect(capped.statusCode).toBe(429);
    expect(withoutRequestId(capped.json())).toEqual(
      withoutRequestId(race.find((r) => r.statusCode === 429)!.json()),
    );
    const stored = await t.database.query<{ n: number }>(
      "select count(*)::int as n from money_requests where requester_id = $1 and payer_id = $2",
      [requester.user.id, payer.user.id],
    );
    expect(stored[0]!.n).toBe(3);
  });
});
