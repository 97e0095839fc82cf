import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { STATEMENT_MESSAGES } from "@/contract/statements";
import { closeSavings } from "@/server/features/savings/close-savings";
import { accrueInterestThrough } from "@/server/features/savings/interest";
import { moveSavings } from "@/server/features/savings/move-savings";
import { createGoal, openSavings } from "@/server/features/savings/savings";
import {
  computeApyEarned,
  getSavingsStatementSummary,
  openSavingsStatement,
} from "@/server/features/statements/savings-statement-data";
import { monthOf } from "@/server/features/statements/statement-month";
import {
  findStatementRun,
  findStoredSavingsStatement,
  queueStatementRun,
  runStatementsToEnd,
  statementRunPass,
} from "@/server/features/statements/statement-run";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 069: the monthly savings statement — opening and closing balance, every movement, the
// interest earned, Regulation DD's Annual Percentage Yield Earned and the days in the period — its download (the
// customer's own account only), and the month-end run, which stores none before the month's interest is paid.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-savings-statement-"));

/** pdftotext reads the PDF as a customer's viewer would; -layout keeps a row's cells on one line. */
function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(outDir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  if (process.env.KEEP_PDF_DIR) fs.copyFileSync(file, path.join(process.env.KEEP_PDF_DIR, `${name}.pdf`));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const get = (who: SignedInUser | null, url: string) =>
  t.app.inject({ method: "GET", url, headers: who ? { cookie: who.cookie } : {} });
const pdfUrl = (accountId: string, month: string) => `/api/statements/savings/${accountId}/${month}.pdf`;
const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId: _id, ...rest } = body;
  return rest;
};
const at = (iso: string) => new Date(iso);

let saver: SignedInUser;
let saverAccount: string;
let steady: SignedInUser;
let steadyAccount: string;
let keyCounter = 0;

async function move(
  who: SignedInUser,
  direction: "to_savings" | "to_checking",
  amount: string,
  when: Date,
  goalId?: string,
) {
  const result = await moveSavings(
    t.database.db,
    who.user.id,
    { direction, amount, ...(goalId ? { goalId } : {}) },
    `statement-move-${++keyCounter}`,
    when,
  );
  expect(result.statusCode).toBe(201);
}

beforeAll(async () => {
  // Moves are dated in January–March 2026: on PostgreSQL their months' partitions must exist (decision 063).
  await t.database.query("select partitions_premake(30)");
  // The saver: $10,000 in on 1 January toward a goal, $500 back on the 16th, $1,000 more on 10 February.
  saver = await createFundedCustomer(t, admin, "12000.00");
  saverAccount = (await openSavings(t.database.db, saver.user.id, at("2026-01-01T05:00:00Z"))).account!.id;
  const goal = await createGoal(t.database.db, saver.user.id, { name: "Emergency fund", target: "15000" });
  await move(saver, "to_savings", "10000", at("2026-01-01T05:00:00Z"), goal.account!.goals[0]!.id);
  await move(saver, "to_checking", "500", at("2026-01-16T17:00:00Z"));
  await move(saver, "to_savings", "1000", at("2026-02-10T17:00:00Z"));
  // Steady: $10,000 held all January, the hand-worked example below.
  steady = await createFundedCustomer(t, admin, "10000.00");
  steadyAccount = (await openSavings(t.database.db, steady.user.id, at("2026-01-01T05:00:00Z"))).account!.id;
  await move(steady, "to_savings", "10000", at("2026-01-01T05:00:00Z"));
  // January's interest is paid; February's is not (accrued through 31 January only).
  await accrueInterestThrough(t.database.db, "2026-01-31");
});

describe("the Annual Percentage Yield Earned (Regulation DD, Appendix A, Part II)", () => {
  it("is 2.50% on $10,000.00 earning $250.00 over a whole year, and matches worked examples", async () => {
    const db = t.database.db;
    // 100 × ((1 + 25,000 / 1,000,000)^(365/365) − 1) = 2.50, a leap year's 366 days on the same 365-day year too.
    expect(await computeApyEarned(db, { interest: 25_000, balanceDays: 1_000_000 * 365, days: 365 })).toBe(
      "2.50",
    );
    // Worked by hand: $5.25 on an average $1,500.00 over 30 days: 100 × (1.0035^(365/30) − 1) = 4.3425… → 4.34.
    expect(await computeApyEarned(db, { interest: 525, balanceDays: 150_000 * 30, days: 30 })).toBe("4.34");
    // $3.36 on an average $1,436.61 over 31 days: 100 × ((1 + 3.36/1,436.61)^(365/31) − 1) = 2.7887… → 2.79.
    expect(await computeApyEarned(db, { interest: 336, balanceDays: 143_661 * 31, days: 31 })).toBe("2.79");
    // No balance, no day: nothing earned.
    expect(await computeApyEarned(db, { interest: 0, balanceDays: 0, days: 31 })).toBe("0.00");
    expect(await computeApyEarned(db, { interest: 0, balanceDays: 0, days: 0 })).toBe("0.00");
  });
});

describe("the month-end run and savings statements", () => {
  it("stores no savings statement before the month's interest is paid, and stores it once it is", async () => {
    const db = t.database.db;
    // February is over but its interest not credited: the run stores checking's statements and waits at savings.
    await queueStatementRun(db, "2026-02");
    const february = await runStatementsToEnd(db, "2026-02");
    expect(february).toMatchObject({ status: "running", phase: "savings", savingsTotal: 2, savingsDone: 0 });
    expect(await findStoredSavingsStatement(db, saverAccount, "2026-02")).toBeNull();
    const again = await statementRunPass(db);
    expect(again).toMatchObject({ done: 0, more: false, waiting: true });
    expect((await findStatementRun(db, "2026-02"))?.status).toBe("running");
    // A later month's run does its checking statements and waits behind February's savings, without spinning.
    expect(await runStatementsToEnd(db, "2026-03")).toMatchObject({
      status: "running",
      phase: "savings",
      savingsDone: 0,
    });

    // January's interest is paid: its run stores both accounts' statements and finishes.
    const january = await runStatementsToEnd(db, "2026-01");
    expect(january).toMatchObject({ status: "done", savingsTotal: 2, savingsDone: 2 });
    const stored = await findStoredSavingsStatement(db, saverAccount, "2026-01");
    const { owner, period } = await openSavingsStatement(db, saver.user.id, saverAccount, "2026-01");
    const live = await getSavingsStatementSummary(db, owner, period);
    expect(live).toEqual({
      opening: 0,
      deposits: 1_000_000,
      withdrawals: -50_000,
      interest: 2045,
      closing: 952_045,
      count: 3,
      days: 31,
      balanceDays: 15 * 1_000_000 + 16 * 950_000,
      apyEarned: "2.50",
    });
    expect(stored).toEqual({ ...live, digest: stored!.digest });
    // The route draws the PDF from the stored figures (a tampered row shows it reads them), and its digest is the one
    // the run stored.
    await t.database.query(
      "update savings_statements set apy_earned = 9.99 where account_id = $1 and month = '2026-01'",
      [saverAccount],
    );
    const tampered = pdfText(
      (await get(saver, pdfUrl(saverAccount, "2026-01"))).rawPayload,
      "saver-tampered",
    );
    expect(tampered).toMatch(/Annual Percentage Yield Earned\s+9\.99%/);
    expect(tampered).toContain(`Ledger digest ${stored!.digest}`);
    await t.database.query(
      "update savings_statements set apy_earned = 2.50 where account_id = $1 and month = '2026-01'",
      [saverAccount],
    );

    // February's credit made, the waiting run goes on from where it stopped.
    await accrueInterestThrough(db, "2026-02-28");
    const done = await runStatementsToEnd(db, "2026-02");
    expect(done).toMatchObject({ status: "done", savingsDone: 2 });
    expect(await findStoredSavingsStatement(db, saverAccount, "2026-02")).toMatchObject({
      opening: 952_045,
      deposits: 100_000,
      withdrawals: 0,
      days: 28,
    });
  });
});

describe("the savings statement", () => {
  it("prints the balances, every movement with its goal, the interest, the APY earned and the days", async () => {
    const res = await get(saver, pdfUrl(saverAccount, "2026-01"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="pillar-savings-statement-2026-01.pdf"',
    );
    const text = pdfText(res.rawPayload, "saver-2026-01");
    const [interest] = await t.database.query<{ credited_cents: number; balance_days: number; days: number }>(
      `select credited_cents::int, balance_days::bigint as balance_days, days from savings_interest
       where account_id = $1 and month = '2026-01-01'`,
      [saverAccount],
    );
    // Days 1–15 at $10,000.00, 16–31 at $9,500.00 (the move on the 16th is in that day's closing balance).
    expect(Number(interest!.balance_days)).toBe(15 * 1_000_000 + 16 * 950_000);
    expect(interest!.days).toBe(31);
    // Each day's interest at January's daily rate ((1.025^(31/365) − 1) / 31), rounded down to the micro.
    expect(interest!.credited_cents).toBe(2045);

    expect(text).toContain("Savings statement");
    expect(text).toContain("January 2026");
    expect(text).toMatch(/Opening balance\s+\$0\.00/);
    expect(text).toMatch(/From Checking: Emergency fund\s+\w{8}\s+\+\$10,000\.00\s+\$10,000\.00/);
    expect(text).toMatch(/To Checking\s+\w{8}\s+-\$500\.00\s+\$9,500\.00/);
    expect(text).toMatch(/Interest for January 2026\s+\w{8}\s+\+\$20\.45\s+\$9,520\.45/);
    expect(text).toMatch(/Closing balance\s+\$9,520\.45/);
    expect(text).toMatch(/Interest earned this period\s+\$20\.45/);
    // Regulation DD's formula, independently: 100 × ((1 + 2045 × 31 / 30,200,000)^(365/31) − 1) = 2.4997… → 2.50.
    const apy = 100 * ((1 + (2045 * 31) / 30_200_000) ** (365 / 31) - 1);
    expect(apy.toFixed(2)).toBe("2.50");
    expect(text).toMatch(/Annual Percentage Yield Earned\s+2\.50%/);
    expect(text).toMatch(/Days in period\s+31/);
    expect(text).toMatch(/Statement period\s+01\/01\/26 to 01\/31\/26/);
    expect(text).toMatch(/Average daily balance\s+\$9,741\.94/);
    expect(text).toMatch(/Ledger digest [0-9A-F]{4}(-[0-9A-F]{4}){3}/);
    expect(text).toContain("Savings account opened 01/01/26");

    // February opens where January closed: January's credit is in February's opening balance.
    const february = pdfText((await get(saver, pdfUrl(saverAccount, "2026-02"))).rawPayload, "saver-2026-02");
    expect(february).toMatch(/Opening balance\s+\$9,520\.45/);
    expect(february).toMatch(/From Checking\s+\w{8}\s+\+\$1,000\.00\s+\$10,520\.45/);
    expect(february).toMatch(/Days in period\s+28/);
  });

  it("shows $10,000.00 held all January earning $20.99 at 2.50% (worked by hand)", async () => {
    // 31 days × floor(1,000,000¢ × 10,000 × (1.025^(31/365) − 1) / 31) = 31 × 677,219 micros = $20.99 (and
    // 0.3789¢ carried); APY earned = 100 × ((1 + 2,099 / 1,000,000)^(365/31) − 1) = 2.4995… → 2.50.
    const text = pdfText((await get(steady, pdfUrl(steadyAccount, "2026-01"))).rawPayload, "steady-2026-01");
    expect(text).toMatch(/Interest earned this period\s+\$20\.99/);
    expect(text).toMatch(/Annual Percentage Yield Earned\s+2\.50%/);
    expect(text).toMatch(/Days in period\s+31/);
    expect(text).toMatch(/Average daily balance\s+\$10,000\.00/);
    expect(text).toMatch(/Closing balance\s+\$10,020\.99/);
  });

  it("lists the months whose interest is paid, beside checking's months", async () => {
    const list = (await get(saver, "/api/statements")).json();
    expect(list.months[0]).toBe(monthOf(new Date()));
    expect(list.savings).toEqual([
      { accountId: saverAccount, month: "2026-02" },
      { accountId: saverAccount, month: "2026-01" },
    ]);
    const none = await createApprovedCustomer(t.database);
    expect((await get(none, "/api/statements")).json().savings).toEqual([]);
  });

  it("is the customer's own: another's account, an unknown one, an unready or unopened month are refused", async () => {
    const other = await createFundedCustomer(t, admin, "10.00");
    await openSavings(t.database.db, other.user.id);
    const refusals: [SignedInUser | null, string, number, string | null][] = [
      [other, pdfUrl(saverAccount, "2026-01"), 404, STATEMENT_MESSAGES.noSavingsAccount],
      [admin, pdfUrl(saverAccount, "2026-01"), 404, STATEMENT_MESSAGES.noSavingsAccount],
      [
        saver,
        pdfUrl("00000000-0000-4000-8000-000000000000", "2026-01"),
        404,
        STATEMENT_MESSAGES.noSavingsAccount,
      ],
      [saver, pdfUrl("not-an-account", "2026-01"), 404, STATEMENT_MESSAGES.noSavingsAccount],
      [saver, pdfUrl(saverAccount, "2026-13"), 400, STATEMENT_MESSAGES.invalidMonth],
      [saver, pdfUrl(saverAccount, "2025-12"), 404, STATEMENT_MESSAGES.noSavingsMonth],
      [saver, pdfUrl(saverAccount, "2099-01"), 404, STATEMENT_MESSAGES.noSavingsMonth],
      // March has not been accrued nor credited: not ready; this month neither (its interest is paid at its end).
      [saver, pdfUrl(saverAccount, "2026-03"), 409, STATEMENT_MESSAGES.savingsNotReady],
      [saver, pdfUrl(saverAccount, monthOf(new Date())), 409, STATEMENT_MESSAGES.savingsNotReady],
      [null, pdfUrl(saverAccount, "2026-01"), 401, null],
    ];
    // A customer with no savings at all asks for another's.
    refusals.push([
      await createApprovedCustomer(t.database),
      pdfUrl(saverAccount, "2026-01"),
      404,
      STATEMENT_MESSAGES.noSavingsAccount,
    ]);
    for (const [who, url, status, message] of refusals) {
      const res = await get(who, url);
      expect(res.statusCode, url).toBe(status);
      expect(res.headers["content-type"], url).toMatch(/application\/json/);
      if (message) expect(res.json().message, url).toBe(message);
    }
    expect(withoutRequestId((await get(saver, pdfUrl(saverAccount, "2026-03"))).json())).toEqual({
      message: STATEMENT_MESSAGES.savingsNotReady,
      code: "CONFLICT",
    });
  });

  it("is ready for the month an account closed in, with the closing's interest and its move to checking", async () => {
    const closer = await createFundedCustomer(t, admin, "2000.00");
    const account = (await openSavings(t.database.db, closer.user.id, at("2026-03-01T05:00:00Z"))).account!
      .id;
    await move(closer, "to_savings", "2000", at("2026-03-01T05:00:00Z"));
    const closed = await closeSavings(
      t.database.db,
      closer.user.id,
      "close-march",
      at("2026-03-11T15:00:00Z"),
    );
    expect(closed.statusCode).toBe(200);
    const interest = (closed.body as { closing: { interestCents: number } }).closing.interestCents;
    expect(interest).toBeGreaterThan(0);

    const res = await get(closer, pdfUrl(account, "2026-03"));
    expect(res.statusCode, res.body).toBe(200);
    const text = pdfText(res.rawPayload, "closer-2026-03");
    const money = (cents: number) => `\\$${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
    expect(text).toMatch(new RegExp(`Interest for March 2026\\s+\\w{8}\\s+\\+${money(interest)}`));
    expect(text).toMatch(
      new RegExp(`To Checking \\(account closed\\)\\s+\\w{8}\\s+-${money(200_000 + interest)}\\s+\\$0\\.00`),
    );
    expect(text).toMatch(/Closing balance\s+\$0\.00/);
    // 1–10 March accrued at $2,000.00; the 11th closed with nothing in it: 11 days, $1,818.18 on average.
    expect(text).toMatch(/Days in period\s+11/);
    expect(text).toMatch(/Statement period\s+03\/01\/26 to 03\/11\/26/);
    expect(text).toMatch(/Average daily balance\s+\$1,818\.18/);
    const apy = 100 * ((1 + (interest * 11) / 2_000_000) ** (365 / 11) - 1);
    expect(text).toMatch(
      new RegExp(`Annual Percentage Yield Earned\\s+${apy.toFixed(2).replace(".", "\\.")}%`),
    );
    expect(text).toContain("closed 03/11/26");
  });
});

describe("checking's statement", () => {
  it("shows the moves to and from savings as the history does", async () => {
    const customer = await createFundedCustomer(t, admin, "300.00");
    await openSavings(t.database.db, customer.user.id);
    const goal = await createGoal(t.database.db, customer.user.id, { name: "Bike", target: "500" });
    await move(customer, "to_savings", "120", new Date(), goal.account!.goals[0]!.id);
    await move(customer, "to_checking", "20", new Date());
    const res = await get(customer, `/api/statements/${monthOf(new Date())}.pdf`);
    expect(res.statusCode, res.body).toBe(200);
    const text = pdfText(res.rawPayload, "checking-moves");
    expect(text).toMatch(/To Savings: Bike\s+\w{8}\s+-\$120\.00\s+\$180\.00/);
    expect(text).toMatch(/From Savings\s+\w{8}\s+\+\$20\.00\s+\$200\.00/);
  });
});
