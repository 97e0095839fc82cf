import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { CLOSURE_BLOCKER_MESSAGES, CLOSURE_MESSAGES } from "@/contract/closure";
import { monthOf } from "@/server/features/statements/statement-month";
import { debitReturnedMoney } from "@/server/lib/ledger";
import {
  createApprovedCustomer,
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerCleanAfterEach,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { expectMoneyConsistent } from "@/tests/support/transfer-invariants";
import { createVerifiedUser, logIn, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 059: closing an account with a zero balance, by its customer or by compliance; every
// refusal is a 409 that says what to do and writes nothing; a closed account neither sends nor receives.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({
  SMTP_URL: sink.url,
  RATE_LIMIT_SCALE: "100",
  TRANSFER_DAILY_COUNT_LIMIT: "1000",
}));
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

let compliance: SignedInUser;
let support: SignedInUser;
let finance: SignedInUser;
beforeAll(async () => {
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
});

let keys = 0;
const call = (who: SignedInUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie, ...(method === "POST" ? { "idempotency-key": `closure-${++keys}` } : {}) },
    ...(payload ? { payload } : {}),
  });
const closeOwn = (who: SignedInUser, password: string | null = who.password) =>
  call(who, "POST", "/api/account/close", password === null ? {} : { password });
const closeByStaff = (staff: SignedInUser, who: SignedInUser, reason = "Customer asked by phone") =>
  call(staff, "POST", `/api/admin/users/${who.user.id}/close`, { reason });
const payByTag = (from: SignedInUser, to: SignedInUser, amount: string) =>
  call(from, "POST", "/api/transfer/tag-payments", { tag: `$${to.user.pillarTag}`, amount });

const closedAtOf = async (who: SignedInUser) =>
  (
    await t.database.query<{ closed_at: Date | null }>("select closed_at from users where id = $1", [
      who.user.id,
    ])
  )[0]!.closed_at;
const auditCount = async (who: SignedInUser) =>
  Number(
    (
      await t.database.query<{ n: string }>(
        "select count(*)::text as n from audit_log where action = 'account.close' and target_id = $1",
        [who.user.id],
      )
    )[0]!.n,
  );

/** A customer who had money and sent all of it away by $tag: history, and a zero balance. */
async function emptiedCustomer() {
  const customer = await createFundedCustomer(t, admin, "40.00");
  const friend = await createApprovedCustomer(t.database);
  const paid = await payByTag(customer, friend, "40.00");
  expect(paid.statusCode, paid.body).toBe(201);
  return { customer, friend };
}

async function expectRefused(who: SignedInUser, blocker: keyof typeof CLOSURE_BLOCKER_MESSAGES) {
  for (const res of [await closeOwn(who), await closeByStaff(compliance, who)]) {
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().closureBlocker, res.body).toBe(blocker);
    expect(res.json()).toMatchObject({
      reason: "closure_blocked",
      closureBlocked: true,
      closureBlocker: blocker,
      message: CLOSURE_BLOCKER_MESSAGES[blocker],
    });
  }
  expect(await closedAtOf(who)).toBeNull();
  expect(await auditCount(who)).toBe(0);
}

describe("a customer closes their own account", () => {
  it("asks for the password, closes, keeps the login and the statements, and tells the customer", async () => {
    const { customer, friend } = await emptiedCustomer();
    const bare = await closeOwn(customer, null);
    expect(bare.statusCode, bare.body).toBe(403);
    expect(bare.json().reason).toBe("password_confirm_required");
    const wrong = await closeOwn(customer, "not-the-password");
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().reason).toBe("password_wrong");
    expect(await closedAtOf(customer)).toBeNull();

    const res = await closeOwn(customer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: CLOSURE_MESSAGES.closed, closure: { closedBy: "customer" } });
    expect(await auditCount(customer)).toBe(1);
    const mail = await sink.waitForMail(customer.email, (m) => /account is closed/i.test(m.subject));
    expect(mail.text).toMatch(/download your statements/);
    const [notice] = await t.database.query<{ title: string }>(
      "select title from notifications where user_id = $1 and title = $2",
      [customer.user.id, CLOSURE_MESSAGES.noticeTitle],
    );
    expect(notice).toBeDefined();

    // The login stays: a new sign-in reads the closure, the history and this month's statement.
    const cookie = await logIn(t.app, customer.email, customer.password);
    const again = { ...customer, cookie };
    const closure = await call(again, "GET", "/api/account/closure");
    expect(closure.json().closure).toMatchObject({
      closedBy: "customer",
      closedAt: res.json().closure.closedAt,
    });
    expect((await call(again, "GET", "/api/transactions")).statusCode).toBe(200);
    const pdf = await call(again, "GET", `/api/statements/${monthOf(new Date())}.pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers["content-type"]).toMatch(/pdf/);
    const summary = await call(again, "GET", "/api/account/summary");
    expect(summary.json().canSendMoney).toBe(false);

    // Nothing moves any more, either way.
    const send = await requestTransfer(t.app, again, { amount: "1.00" }, `closed-send-${customer.user.id}`);
    expect(send.statusCode, send.body).toBe(403);
    expect(send.json()).toMatchObject({ reason: "account_closed", accountClosed: true });
    const toClosed = await payByTag(friend, customer, "5.00");
    expect(toClosed.statusCode, toClosed.body).toBe(404);
    const credit = await call(admin, "POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "5.00",
      status: "completed",
      reason: "After closure",
    });
    expect(credit.statusCode, credit.body).toBe(403);
    expect(credit.json().reason).toBe("account_closed");
    const ask = await call(again, "POST", "/api/transfer/requests", {
      tag: `$${friend.user.pillarTag}`,
      amount: "3",
    });
    expect(ask.statusCode, ask.body).toBe(403);

    // A second closure (a replay, a double click) changes nothing.
    const replay = await closeOwn(again);
    expect(replay.statusCode, replay.body).toBe(409);
    expect(replay.json()).toMatchObject({ reason: "account_already_closed", accountClosed: true });
    expect(await auditCount(customer)).toBe(1);
    await expectMoneyConsistent(t.database);
  }, 120_000);

  it("refuses staff closing their own login here", async () => {
    const res = await closeOwn(support);
    expect(res.statusCode, res.body).toBe(403);
  });
});

describe("staff close a customer's account", () => {
  it("lets compliance close with a reason, recorded on the account and in the audit", async () => {
    const { customer } = await emptiedCustomer();
    const noReason = await call(compliance, "POST", `/api/admin/users/${customer.user.id}/close`, {
      reason: " ",
    });
    expect(noReason.statusCode, noReason.body).toBe(400);
    const res = await closeByStaff(compliance, customer, "Customer wrote in to close");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().closure.closedBy).toBe("staff");
    const [row] = await t.database.query<{ closed_by: string; closure_reason: string }>(
      "select closed_by, closure_reason from users where id = $1",
      [customer.user.id],
    );
    expect(row).toEqual({ closed_by: compliance.user.id, closure_reason: "Customer wrote in to close" });
    const [audit] = await t.database.query<{ actor_id: string; reason: string; actor_role: string }>(
      "select actor_id, reason, actor_role from audit_log where action = 'account.close' and target_id = $1",
      [customer.user.id],
    );
    expect(audit).toEqual({
      actor_id: compliance.user.id,
      reason: "Customer wrote in to close",
      actor_role: "compliance",
    });
    const view = await call(customer, "GET", "/api/account/closure");
    expect(view.json().closure.closedBy).toBe("staff");
  });

  it("refuses support and finance (403 roleRequired) and a customer naming another's id", async () => {
    const { customer } = await emptiedCustomer();
    const other = await createApprovedCustomer(t.database);
    for (const who of [support, finance, other]) {
      const res = await closeByStaff(who, customer);
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(await closedAtOf(customer)).toBeNull();
  });

  it("answers 404 for an unknown customer and 403 for a staff account", async () => {
    const unknown = await call(compliance, "POST", `/api/admin/users/${randomUUID()}/close`, { reason: "x" });
    expect(unknown.statusCode, unknown.body).toBe(404);
    const staff = await closeByStaff(compliance, support);
    expect(staff.statusCode, staff.body).toBe(403);
  });
});

describe("what keeps an account open", () => {
  it("a balance: send it out first", async () => {
    const customer = await createFundedCustomer(t, admin, "12.34");
    await expectRefused(customer, "balance_not_zero");
  });

  it("a negative balance: a returned deposit the customer already spent", async () => {
    const { customer } = await emptiedCustomer();
    // Decision 056: a deep reorg takes back a deposit whatever was spent, leaving the wallet below zero by what
    // it owes; the real path, so the ledger stays whole and the next test's check passes.
    await t.database.db.transaction((tx) =>
      debitReturnedMoney(tx, "usdc_deposits", customer.user.id, {
        kind: "usdc_deposit_reversal",
        description: "USDC deposit reversed",
        amount: 500,
      }),
    );
    await expectRefused(customer, "negative_balance");
    await fundCustomer(t, admin, customer.user.id, "5.00");
  });

  it("a pending transfer", async () => {
    const customer = await createFundedCustomer(t, admin, "20.00");
    const sent = await requestTransfer(t.app, customer, { amount: "20.00" }, `pending-${customer.user.id}`);
    expect(sent.statusCode, sent.body).toBe(201);
    await expectRefused(customer, "transfer_pending");
  });

  it("money on hold", async () => {
    const { customer } = await emptiedCustomer();
    await fundCustomer(t, admin, customer.user.id, "3.00");
    await t.database.query(
      `select place_hold(gen_random_uuid(), a.id, 300, 'test_hold', 'closure') from ledger_accounts a
        where a.user_id = $1`,
      [customer.user.id],
    );
    await expectRefused(customer, "open_holds");
    await t.database.query(
      `with released as (update holds set status = 'released', closed_at = now()
          where reference_type = 'test_hold' returning account_id, amount)
       update ledger_accounts a set held = a.held - r.amount from released r where a.id = r.account_id`,
    );
  });

  it("an active schedule", async () => {
    const { customer } = await emptiedCustomer();
    await t.database.query(
      `insert into transfer_schedules (user_id, recipient_name, address, amount, purpose, cadence, start_on,
         next_run_on, request_key)
       values ($1, 'Sam Lee', $2, 500, 'Rent', 'monthly', current_date + 3, current_date + 3, 'closure-schedule')`,
      [customer.user.id, ETH_ADDRESS.toLowerCase()],
    );
    await expectRefused(customer, "schedule_active");
  });

  it("an open money request, sent or received", async () => {
    const { customer } = await emptiedCustomer();
    const payer = await createApprovedCustomer(t.database);
    const asked = await call(customer, "POST", "/api/transfer/requests", {
      tag: `$${payer.user.pillarTag}`,
      amount: "7.00",
    });
    expect(asked.statusCode, asked.body).toBe(201);
    await expectRefused(customer, "money_request_open");
    await expectRefused(payer, "money_request_open");
  });

  it("an incoming payment still on its way", async () => {
    const { customer } = await emptiedCustomer();
    const pending = await call(admin, "POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "2.00",
      status: "pending",
      reason: "Wire on its way",
    });
    expect(pending.statusCode, pending.body).toBe(201);
    await expectRefused(customer, "incoming_pending");
  });
});

describe("a transfer arriving while the account closes", () => {
  it("either the payment lands and the closure is refused, or the closure wins and the payment is refused", async () => {
    for (let round = 0; round < 12; round++) {
      const { customer } = await emptiedCustomer();
      const payer = await createFundedCustomer(t, admin, "10.00");
      const [closed, paid] = await Promise.all([closeOwn(customer), payByTag(payer, customer, "10.00")]);
      const outcomes = `${closed.statusCode}/${paid.statusCode}`;
      expect(["200/404", "409/201"], `${outcomes} ${closed.body} ${paid.body}`).toContain(outcomes);
      const [wallet] = await t.database.query<{ balance: string }>(
        "select balance::text from ledger_accounts where user_id = $1",
        [customer.user.id],
      );
      // Never a closed account holding money.
      expect(closed.statusCode === 200 ? wallet!.balance : "closed-refused").toBe(
        closed.statusCode === 200 ? "0" : "closed-refused",
      );
    }
    await expectMoneyConsistent(t.database);
  }, 120_000);
});
