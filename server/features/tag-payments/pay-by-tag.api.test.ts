import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { monthOf } from "@/server/features/statements/statement-month";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerClean,
  expectLedgerCleanAfterEach,
  insertKycApplication,
  requestTransfer,
} from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { createTestApp, setUpTestApp, type TestApp } from "@/tests/support/test-app";
import { expectMoneyConsistent } from "@/tests/support/transfer-invariants";
import { createVerifiedUser, type SignedInUser, setUpAdminUser, TEST_PASSWORD } from "@/tests/support/users";

// Paying another customer by $tag (decision 035): wallet → wallet in one transaction, under the same
// gate and limits as a transfer request, every scenario ending with the ledger invariant.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(async () => {
  await expectMoneyConsistent(t.database);
});

let keyCounter = 0;
const pay = (from: SignedInUser, body: Record<string, unknown>, key: string | null = `tag-${++keyCounter}`) =>
  t.app.inject({
    method: "POST",
    url: "/api/transfer/tag-payments",
    headers: { cookie: from.cookie, ...(key === null ? {} : { "idempotency-key": key }) },
    payload: body,
  });
const lookUp = (from: SignedInUser, tag: string, app = t.app) =>
  app.inject({
    method: "GET",
    url: `/api/transfer/tag/${encodeURIComponent(tag)}`,
    headers: { cookie: from.cookie },
  });
const summary = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })
  ).json();
const history = async (who: SignedInUser) =>
  (await t.app.inject({ method: "GET", url: "/api/transactions", headers: { cookie: who.cookie } })).json();
const tagOf = (who: SignedInUser) => `$${who.user.pillarTag}`;

describe("looking up a $tag", () => {
  it("shows the payee's name masked, and answers every tag that cannot be paid the same way", async () => {
    const payer = await createApprovedCustomer(t.database);
    const payee = await createApprovedCustomer(t.database, { firstName: "Jordan", lastName: "rivera" });
    const found = await lookUp(payer, tagOf(payee));
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ tag: tagOf(payee), name: "Jo*** R." });
    expect((await lookUp(payer, payee.user.pillarTag.toUpperCase())).json().name).toBe("Jo*** R.");

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
      const res = await lookUp(payer, tag);
      expect(res.statusCode, tag).toBe(404);
      const { requestId: _id, ...body } = res.json();
      expect(body, tag).toEqual({
        message: "No one can be paid at this $tag. Check the tag and try again.",
        code: "NOT_FOUND",
        reason: "tag_unavailable",
        tagUnavailable: true,
      });
    }
    expect((await lookUp(payer, tagOf(payer))).json().reason).toBe("self_payment");
    expect((await lookUp(admin, tagOf(payee))).statusCode).toBe(403);
  });

  it("refuses anyone who could not pay (no KYC, KYC but no account, frozen) as paying does, naming nobody", async () => {
    const payee = await createApprovedCustomer(t.database, { firstName: "Jordan", lastName: "rivera" });
    const noKyc = await createVerifiedUser(t.database);
    const kycOnly = await createVerifiedUser(t.database);
    await insertKycApplication(t.database, kycOnly, "approved");
    const frozen = await createApprovedCustomer(t.database);
    await t.database.query("update users set frozen_at = now() where id = $1", [frozen.user.id]);
    const cases: Array<[SignedInUser, string]> = [
      [noKyc, "setup_incomplete"],
      [kycOnly, "setup_incomplete"],
      [frozen, "account_frozen"],
    ];
    for (const [who, reason] of cases) {
      const { requestId: _a, ...paid } = (await pay(who, { tag: tagOf(payee), amount: "1.00" })).json();
      for (const tag of [tagOf(payee), "$nobody_here_at_all", tagOf(who)]) {
        const looked = await lookUp(who, tag);
        expect(looked.statusCode, `${reason} ${tag}`).toBe(403);
        const { requestId: _b, ...body } = looked.json();
        expect(body, tag).toEqual(paid);
        expect(body.reason).toBe(reason);
        expect(looked.body).not.toContain("Jo***");
      }
    }
  });

  it("is rate limited per customer", async () => {
    const slow: TestApp = await createTestApp({ RATE_LIMIT_SCALE: "0.1" });
    try {
      const payer = await createApprovedCustomer(slow.database);
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await lookUp(payer, "$nobody_here", slow.app)).statusCode);
      expect(codes.slice(0, 3)).toEqual([404, 404, 404]);
      expect(codes.at(-1)).toBe(429);
    } finally {
      await slow.close();
    }
  });
});

describe("paying by $tag", () => {
  it("moves the money at once, no fee, and both histories name the other party's tag", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    const res = await pay(payer, { tag: tagOf(payee), amount: "5.00", note: "Lunch" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: "Payment sent",
      payment: { amount: "$5.00", amountCents: 500, toTag: tagOf(payee), note: "Lunch" },
    });
    expect((await summary(payer)).availableBalance).toBe("$95.00");
    expect((await summary(payee)).availableBalance).toBe("$5.00");
    const sent = (await history(payer)).transactions ?? (await history(payer));
    const got = (await history(payee)).transactions ?? (await history(payee));
    expect(JSON.stringify(sent)).toContain(`Payment to ${tagOf(payee)}: Lunch`);
    expect(JSON.stringify(got)).toContain(`Payment from ${tagOf(payer)}: Lunch`);
    // It counts toward the daily limits.
    const limits = await t.app.inject({
      method: "GET",
      url: "/api/transfer/limits",
      headers: { cookie: payer.cookie },
    });
    expect(limits.json().usedTodayCents).toBe(500);
    // Both sides are told, in the notification centre, after the commit (the jobs room, decision 050).
    await t.app.jobs.drainConsumers();
    const titles = async (who: { cookie: string }) =>
      (await t.app.inject({ method: "GET", url: "/api/notifications", headers: { cookie: who.cookie } }))
        .json()
        .items.map((n: { title: string }) => n.title);
    expect(await titles(payer)).toContain(`Paid ${tagOf(payee)}`);
    expect(await titles(payee)).toContain(`Payment from ${tagOf(payer)}`);
  });

  it("shows on both parties' monthly statements with both tags", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    expect((await pay(payer, { tag: tagOf(payee), amount: "12.34" })).statusCode).toBe(201);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tag-statement-"));
    for (const who of [payer, payee]) {
      const pdf = await t.app.inject({
        method: "GET",
        url: `/api/statements/${monthOf(new Date())}.pdf`,
        headers: { cookie: who.cookie },
      });
      expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
      const file = path.join(dir, `${who.user.id}.pdf`);
      fs.writeFileSync(file, pdf.rawPayload);
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
      expect(text).toContain(`Payment from ${tagOf(payer)} to ${tagOf(payee)}`);
      expect(text).toContain("12.34");
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("replays an answered key, refuses the key with another body, and keeps keys per customer", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const other = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    const first = await pay(payer, { tag: tagOf(payee), amount: "7" }, "same-key");
    const again = await pay(payer, { tag: tagOf(payee), amount: "7" }, "same-key");
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().payment.id).toBe(first.json().payment.id);
    const changed = await pay(payer, { tag: tagOf(payee), amount: "8" }, "same-key");
    expect(changed.statusCode).toBe(409);
    // Another customer's use of the same key is their own payment, never a replay of the first.
    const theirs = await pay(other, { tag: tagOf(payee), amount: "7" }, "same-key");
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().payment.id).not.toBe(first.json().payment.id);
    expect((await summary(payee)).availableBalance).toBe("$14.00");
    expect((await pay(payer, { tag: tagOf(payee), amount: "1" }, null)).json().reason).toBe(
      "idempotency_key_required",
    );
  });

  it("never overdraws under racing payments, and opposite payments do not deadlock", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createFundedCustomer(t, admin, "100.00");
    const race = await Promise.all([
      pay(payer, { tag: tagOf(payee), amount: "60" }),
      pay(payer, { tag: tagOf(payee), amount: "60" }),
      pay(payee, { tag: tagOf(payer), amount: "30" }),
      pay(payer, { tag: tagOf(payee), amount: "60" }),
    ]);
    const fromPayer = [race[0]!, race[1]!, race[3]!];
    expect(race[2]!.statusCode).toBe(201);
    const codes = fromPayer.map((r) => r.statusCode).sort();
    // $100 + maybe the $30 that arrived first: at most two $60 payments can fit only if the $30 landed before.
    expect(codes.filter((c) => c === 201).length).toBeGreaterThanOrEqual(1);
    expect(codes.filter((c) => c === 201).length).toBeLessThanOrEqual(2);
    for (const r of fromPayer.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode).toBe(422);
      expect(r.json().reason).toBe("insufficient_funds");
    }
    const paid = codes.filter((c) => c === 201).length * 6_000;
    expect((await summary(payer)).balanceCents ?? null).not.toBeUndefined;
    const [row] = await t.database.query(
      "select balance::int as balance from ledger_accounts where user_id = $1",
      [payer.user.id],
    );
    expect(row!.balance).toBe(10_000 + 3_000 - paid);
    expect(row!.balance).toBeGreaterThanOrEqual(0);
    await expectLedgerClean(t.database);
  });

  it("refuses staff as payer or payee and a frozen payer; a payer's own crypto-send block does not stop it", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    const staffPays = await pay(admin, { tag: tagOf(payee), amount: "1" });
    expect(staffPays.statusCode).toBe(403);
    expect(staffPays.json().reason).toBe("staff_account");
    const toStaff = await pay(payer, { tag: tagOf(admin), amount: "1" });
    expect(toStaff.statusCode).toBe(404);
    expect(toStaff.json().reason).toBe("tag_unavailable");

    await t.app.inject({
      method: "PUT",
      url: "/api/transfer/self-limits/send-block",
      headers: { cookie: payer.cookie },
      payload: { on: true, cooldown: "24 hours", password: TEST_PASSWORD },
    });
    // The block covers USDC leaving the bank (decision 047): a USDC transfer is refused, a $tag payment is not.
    const usdc = await requestTransfer(t.app, payer, { amount: "1" }, "usdc-while-blocked");
    expect(usdc.statusCode).toBe(403);
    expect(usdc.json().reason).toBe("sends_blocked");
    const byTag = await pay(payer, { tag: tagOf(payee), amount: "1" });
    expect(byTag.statusCode, byTag.body).toBe(201);
    expect((await summary(payee)).availableBalance).toBe("$1.00");

    const frozen = await createFundedCustomer(t, admin, "100.00");
    await t.database.query("update users set frozen_at = now() where id = $1", [frozen.user.id]);
    const res = await pay(frozen, { tag: tagOf(payee), amount: "1" });
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe("account_frozen");
    expect((await summary(payee)).availableBalance).toBe("$1.00");
    await expectLedgerClean(t.database);
  });

  it("counts toward the bank's $2,000 and the customer's own daily limit", async () => {
    const payer = await createFundedCustomer(t, admin, "3000.00");
    const payee = await createApprovedCustomer(t.database);
    expect((await requestTransfer(t.app, payer, { amount: "1990" }, "usdc-1")).statusCode).toBe(201);
    const over = await pay(payer, { tag: tagOf(payee), amount: "20" });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ reason: "daily_limit", remainingToday: "$10.00" });
    expect((await pay(payer, { tag: tagOf(payee), amount: "10" })).statusCode).toBe(201);
    // Now the day's total is $2,000: a transfer request is refused too.
    expect((await requestTransfer(t.app, payer, { amount: "1" }, "usdc-2")).json().reason).toBe(
      "daily_limit",
    );

    const careful = await createFundedCustomer(t, admin, "100.00");
    await t.app.inject({
      method: "PUT",
      url: "/api/transfer/self-limits/daily-limit",
      headers: { cookie: careful.cookie },
      payload: { dailyLimit: "25", password: TEST_PASSWORD },
    });
    expect((await pay(careful, { tag: tagOf(payee), amount: "20" })).statusCode).toBe(201);
    const own = await pay(careful, { tag: tagOf(payee), amount: "6" });
    expect(own.statusCode).toBe(422);
    expect(own.json()).toMatchObject({ reason: "personal_daily_limit", remainingToday: "$5.00" });
  });

  it("asks for the second factor when one is enrolled, and spends a code once", async () => {
    const payer = await createFundedCustomer(t, admin, "100.00");
    const payee = await createApprovedCustomer(t.database);
    const { secret } = await enrolTotp(t.app, payer.cookie);
    const bare = await pay(payer, { tag: tagOf(payee), amount: "3" });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({
      reason: "step_up_required",
      methods: expect.arrayContaining(["totp"]),
    });
    const wrong = await pay(payer, {
      tag: tagOf(payee),
      amount: "3",
      secondFactor: { method: "totp", code: "000000" },
    });
    expect(wrong.statusCode).toBe(400);
    const code = await freshTotpCode(t.database, payer.user.id, secret);
    const ok = await pay(payer, { tag: tagOf(payee), amount: "3", secondFactor: { method: "totp", code } });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await summary(payee)).availableBalance).toBe("$3.00");
  });

  it.each([
    [{ tag: "$x", amount: "0" }, 400, "Amount must be greater than $0"],
    [{ tag: "$x", amount: "-1" }, 400, "Amount must be greater than $0"],
    [{ tag: "$x", amount: "1e3" }, 400, "Amount must be a dollar amount with at most 2 decimals"],
    [{ tag: "$x", amount: "1.001" }, 400, "Amount must be a dollar amount with at most 2 decimals"],
    [{ tag: "$x", amount: { $gt: 0 } }, 400, /amount/i],
    [{ tag: ["$x"], amount: "1" }, 400, /tag/i],
    [{ tag: "$x", amount: "1", fromUserId: "someone" }, 400, /unrecognized|fromUserId/i],
    [{ tag: "$x".repeat(50), amount: "1" }, 400, /tag/i],
    [{ tag: "$x", amount: "1", note: "n".repeat(141) }, 400, "A note can be at most 140 characters"],
    [
      { tag: "$nobody_here_at_all", amount: "1" },
      404,
      "No one can be paid at this $tag. Check the tag and try again.",
    ],
  ])("refuses %j", async (body, status, message) => {
    const payer = await createFundedCustomer(t, admin, "10.00");
    const res = await pay(payer, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toMatch(message);
  });

  it("refuses paying yourself", async () => {
    const payer = await createFundedCustomer(t, admin, "10.00");
    const res = await pay(payer, { tag: tagOf(payer), amount: "1" });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe("self_payment");
  });
});
