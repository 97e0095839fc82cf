import { describe, expect, it } from "vitest";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import {
  approveAsSecond,
  createApprovedCustomer,
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerCleanAfterEach,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser, setUpVerifiedUser } from "@/tests/support/users";

// Decision 027: the writes a failover can leave unknown besides transfers (a customer's chat message, a staff
// reply, a credit or its approval request) take an optional Idempotency-Key, so a careful client's resend
// makes them once.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const ada = setUpVerifiedUser(t, { firstName: "Ada" });
const bob = setUpVerifiedUser(t, { firstName: "Bob" });
const admin = setUpAdminUser(t, { firstName: "Grace" });
expectLedgerCleanAfterEach(t);

const post = (who: SignedInUser, url: string, payload: object, key?: string) =>
  t.app.inject({
    method: "POST",
    url,
    payload,
    headers: { cookie: who.cookie, ...(key === undefined ? {} : { "idempotency-key": key }) },
  });
const chat = (who: SignedInUser, message: string, key?: string) =>
  post(who, "/api/chat/send", { message }, key);
const count = async (sql: string, params: unknown[]) =>
  (await t.database.query<{ n: number }>(sql, params))[0]!.n;
const chatRows = (userId: string, message: string) =>
  count("select count(*)::int as n from chat_messages where user_id = $1 and message = $2", [
    userId,
    message,
  ]);

describe("a customer's chat message with an Idempotency-Key", () => {
  it("is stored once: the resend answers the first message again, marked as replayed", async () => {
    const first = await chat(ada, "Where is my card?", "chat-1");
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await chat(ada, "Where is my card?", "chat-1");
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await chatRows(ada.user.id, "Where is my card?")).toBe(1);
  });

  it("made by ten racing resends, is stored once and every answer names it", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => chat(ada, "Racing hello", "chat-race")),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(answers.filter((a) => a.headers["idempotent-replayed"] === "true")).toHaveLength(9);
    expect(await chatRows(ada.user.id, "Racing hello")).toBe(1);
  });

  it("refuses the same key with another message (409), writing nothing", async () => {
    await chat(ada, "First words", "chat-2");
    const other = await chat(ada, "Other words", "chat-2");
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({
      code: "CONFLICT",
      message: "This Idempotency-Key was already used for a different request",
    });
    expect(await chatRows(ada.user.id, "Other words")).toBe(0);
  });

  it("refuses a key that is not 1 to 255 visible characters (400), writing nothing", async () => {
    for (const key of ["has space", "x".repeat(256), "tab\tkey", "é"]) {
      const res = await chat(ada, `Bad key ${key.length}`, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().message).toBe(TRANSFER_MESSAGES.idempotencyKeyInvalid);
      expect(await chatRows(ada.user.id, `Bad key ${key.length}`)).toBe(0);
    }
  });

  it("is each customer's own: another customer's same key makes their own message", async () => {
    const mine = await chat(ada, "Ada's note", "shared-key");
    const theirs = await chat(bob, "Bob's note", "shared-key");
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await chatRows(bob.user.id, "Bob's note")).toBe(1);
  });

  it("never replays a transfer's answer: a key first used for a transfer makes a chat message", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const transfer = await requestTransfer(
      t.app,
      customer,
      { amount: "10.00", cryptoAddress: ETH_ADDRESS },
      "t-1",
    );
    expect(transfer.statusCode, transfer.body).toBe(201);
    const message = await chat(customer, "About that transfer", "t-1");
    expect(message.statusCode).toBe(200);
    expect(message.json()).toMatchObject({ message: "About that transfer", isFromUser: true });
    expect(await chatRows(customer.user.id, "About that transfer")).toBe(1);
  });

  it("without a key, every send is a new message (as the spec has it)", async () => {
    await chat(ada, "Twice", undefined);
    await chat(ada, "Twice", undefined);
    expect(await chatRows(ada.user.id, "Twice")).toBe(2);
  });
});

describe("a staff reply with an Idempotency-Key", () => {
  it("is stored, notified and audited once", async () => {
    const url = `/api/admin/chats/${ada.user.id}/reply`;
    const first = await post(admin, url, { message: "Your card ships today" }, "reply-1");
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(admin, url, { message: "Your card ships today" }, "reply-1");
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await chatRows(ada.user.id, "Your card ships today")).toBe(1);
    expect(
      await count("select count(*)::int as n from audit_log where action = 'chat.reply' and target_id = $1", [
        ada.user.id,
      ]),
    ).toBe(1);
  });

  it("to another customer with the same key is refused (409): the key named the first customer's reply", async () => {
    await post(admin, `/api/admin/chats/${ada.user.id}/reply`, { message: "Same words" }, "reply-2");
    const other = await post(
      admin,
      `/api/admin/chats/${bob.user.id}/reply`,
      { message: "Same words" },
      "reply-2",
    );
    expect(other.statusCode).toBe(409);
    expect(await chatRows(bob.user.id, "Same words")).toBe(0);
  });

  it("to nobody answers 404 and keeps nothing: the key still works for a real reply", async () => {
    const missing = await post(
      admin,
      "/api/admin/chats/00000000-0000-4000-8000-000000000000/reply",
      { message: "Hello" },
      "reply-3",
    );
    expect(missing.statusCode).toBe(404);
    const real = await post(admin, `/api/admin/chats/${bob.user.id}/reply`, { message: "Hello" }, "reply-3");
    expect(real.statusCode).toBe(200);
    expect(real.headers["idempotent-replayed"]).toBeUndefined();
  });
});

describe("a credit with an Idempotency-Key (incoming payment, completed)", () => {
  const balance = async (userId: string) =>
    (
      await t.database.query<{ balance: string }>(
        "select balance::text from ledger_accounts where kind = 'wallet' and user_id = $1",
        [userId],
      )
    )[0]?.balance;
  const credit = (userId: string, amount: string, key: string) =>
    post(
      admin,
      "/api/admin/incoming-payments",
      { userId, amount, status: "completed", reason: "Wire received" },
      key,
    );

  it("below the approval threshold, posts once however often and however fast it is resent", async () => {
    const customer = await createApprovedCustomer(t.database);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => credit(customer.user.id, "25.00", "cr-1")),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.json().payment.id)).size).toBe(1);
    const late = await credit(customer.user.id, "25.00", "cr-1");
    expect(late.headers["idempotent-replayed"]).toBe("true");
    expect(await balance(customer.user.id)).toBe("2500");
    expect(
      await count("select count(*)::int as n from incoming_payments where user_id = $1", [customer.user.id]),
    ).toBe(1);
  });

  it("above it, stores one approval request; approved, the money arrives once", async () => {
    const customer = await createApprovedCustomer(t.database);
    const first = await credit(customer.user.id, "1500.00", "cr-2");
    expect(first.statusCode, first.body).toBe(202);
    const again = await credit(customer.user.id, "1500.00", "cr-2");
    expect(again.statusCode).toBe(202);
    expect(again.json().approval.id).toBe(first.json().approval.id);
    expect(
      await count("select count(*)::int as n from approvals where maker_id = $1 and status = 'pending'", [
        admin.user.id,
      ]),
    ).toBe(1);
    const approved = await approveAsSecond(t, first);
    expect(approved.statusCode, approved.body).toBe(200);
    // A resend after the approval still names the same request; it makes nothing new.
    const late = await credit(customer.user.id, "1500.00", "cr-2");
    expect(late.json().approval.id).toBe(first.json().approval.id);
    expect(await balance(customer.user.id)).toBe("150000");
    // Approving twice (a checker's own resend) moves no more money.
    const twice = await approveAsSecond(t, first);
    expect(twice.statusCode).toBe(409);
    expect(await balance(customer.user.id)).toBe("150000");
  });

  it("refused (no such customer) keeps nothing", async () => {
    const missing = await credit("00000000-0000-4000-8000-000000000000", "5.00", "cr-3");
    expect(missing.statusCode).toBe(404);
    expect(
      await count(
        "select count(*)::int as n from idempotency_keys where user_id = $1 and key like '% cr-3'",
        [admin.user.id],
      ),
    ).toBe(0);
  });
});
