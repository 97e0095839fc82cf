import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  computeStatementDigest,
  getStatementSummary,
  openStatement,
} from "@/server/features/statements/statement-data";
import { monthOf } from "@/server/features/statements/statement-month";
import {
  findStatementRun,
  findStoredStatement,
  previousMonth,
  queueStatementRun,
  runStatementsToEnd,
  statementRunPass,
} from "@/server/features/statements/statement-run";
import {
  createApprovedCustomer,
  expectLedgerCleanAfterEach,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Decision 062: the month-end run stores each customer's statement figures for a closed month in
// keyset batches, once, resumable from its cursor; the statement route then draws the PDF from them.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-statement-run-"));
let a: SignedInUser;
let month: string;
const customers: SignedInUser[] = [];

function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(outDir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  // The generation instant is the one line that may differ between two downloads.
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => !/generated/i.test(line))
    .join("\n");
}

const statementPdf = async (who: SignedInUser) => {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/statements/${month}.pdf`,
    headers: { cookie: who.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
};

beforeAll(async () => {
  a = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, a.user.id, "1000.00");
  await fundCustomer(t, admin, a.user.id, "250.50");
  const transfer = await requestTransfer(t.app, a, {
    amount: 100,
    purpose: "Rent for the flat",
    recipientRouting: "CRYPTO",
  });
  expect(transfer.statusCode, transfer.body).toBe(201);
  const settled = await t.app.inject({
    method: "PUT",
    url: `/api/admin/transfer-requests/${transfer.json().transferRequest.id}`,
    headers: { cookie: admin.cookie },
    payload: { status: "completed", adminNotes: "checked" },
  });
  expect(settled.statusCode, settled.body).toBe(200);
  customers.push(a);
  for (const amount of ["77.77", "12.00", null, "5.05"]) {
    const customer = await createApprovedCustomer(t.database);
    if (amount) await fundCustomer(t, admin, customer.user.id, amount);
    customers.push(customer);
  }
  // Everything so far happened two months ago, and a's first funding a month before that (its opening balance).
  const back = "interval '2 months'";
  await t.database.query(`update postings set created_at = created_at - ${back}`);
  await t.database.query(`update transactions set created_at = created_at - ${back}`);
  await t.database.query(`update ledger_accounts set created_at = created_at - interval '3 months'`);
  await t.database.query(
    `update postings set created_at = created_at - interval '1 month'
     where id = (select min(p.id) from postings p join ledger_accounts w on w.id = p.account_id where w.user_id = $1)`,
    [a.user.id],
  );
  const [row] = await t.database.query<{ at: Date }>(
    "select max(created_at) as at from postings p where p.account_id in (select id from ledger_accounts where user_id = $1)",
    [a.user.id],
  );
  month = monthOf(new Date(row!.at));
  // A customer who opened their account after the month: no statement for it.
  customers.push(await createApprovedCustomer(t.database));
});
expectLedgerCleanAfterEach(t);

describe("the month-end statement run", () => {
  it("refuses a month that is not closed yet", async () => {
    await expect(queueStatementRun(t.database.db, monthOf(new Date()))).rejects.toThrow(/not closed/);
    expect(previousMonth(new Date("2026-01-15T12:00:00Z"))).toBe("2025-12");
  });

  it("stores every customer's figures and digest exactly as the statement computes them, in batches", async () => {
    const pdfBefore = pdfText(await statementPdf(a), "a-live");
    // One pass, then a 'kill': the next runner goes on from the committed cursor.
    await queueStatementRun(t.database.db, month);
    const first = await statementRunPass(t.database.db, 2);
    expect(first).toMatchObject({ done: 2, more: true, run: { month, status: "running", done: 2 } });
    const run = await runStatementsToEnd(t.database.db, month, { batchSize: 2 });
    const [{ wallets }] = (await t.database.query<{ wallets: number }>(
      `select count(*)::int as wallets from ledger_accounts where kind = 'wallet' and user_id is not null
       and created_at < now() - interval '1 month'`,
    )) as [{ wallets: number }];
    expect(run).toMatchObject({ status: "done", done: wallets, total: wallets });
    const stored = await t.database.query<{ user_id: string }>(
      "select user_id from statements where month = $1",
      [month],
    );
    expect(stored).toHaveLength(wallets);
    expect(stored.map((s) => s.user_id)).not.toContain(customers.at(-1)!.user.id);

    for (const { user_id } of stored) {
      const { owner, period } = await openStatement(t.database.db, user_id, month);
      const live = await getStatementSummary(t.database.db, owner, period);
      const { digest } = await computeStatementDigest(t.database.db, user_id, month);
      expect(await findStoredStatement(t.database.db, user_id, month)).toEqual({ ...live, digest });
    }
    const mine = await findStoredStatement(t.database.db, a.user.id, month);
    expect(mine).toMatchObject({ opening: 100_000, moneyIn: 25_050, moneyOut: -10_000, fees: 200, count: 2 });

    // The route draws the same PDF from the stored figures (a tampered row shows it reads them).
    expect(pdfText(await statementPdf(a), "a-stored")).toBe(pdfBefore);
    await t.database.query("update statements set fees = fees + 1 where user_id = $1 and month = $2", [
      a.user.id,
      month,
    ]);
    expect(pdfText(await statementPdf(a), "a-tampered")).toMatch(/Total money out\s+\$2\.01\s+-\$100\.00/);
    await t.database.query("update statements set fees = fees - 1 where user_id = $1 and month = $2", [
      a.user.id,
      month,
    ]);
  });

  it("run again from the start, it writes nothing new", async () => {
    const before = await t.database.query<{ user_id: string; created_at: Date }>(
      "select user_id, created_at from statements where month = $1 order by user_id",
      [month],
    );
    await t.database.query(
      "update statement_runs set status = 'running', cursor = null, done = 0, finished_at = null, checking_done_at = null, savings_cursor = null, savings_done = 0 where month = $1",
      [month],
    );
    const again = await runStatementsToEnd(t.database.db, month, { batchSize: 3 });
    expect(again.status).toBe("done");
    expect(
      await t.database.query("select user_id, created_at from statements where month = $1 order by user_id", [
        month,
      ]),
    ).toEqual(before);
    expect((await findStatementRun(t.database.db, month))?.done).toBe(before.length);
  });
});
