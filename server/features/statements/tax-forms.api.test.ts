import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatMoney } from "@/contract/money";
import { accrueInterestThrough } from "@/server/features/savings/interest";
import { moveSavings } from "@/server/features/savings/move-savings";
import { openSavings } from "@/server/features/savings/savings";
import { RECORD_LENGTH } from "@/server/features/statements/pub-1220";
import { runTaxFormsToEnd, taxFormRunPass } from "@/server/features/statements/tax-form-run";
import { encryptField } from "@/server/lib/crypto";
import { parseTaxPayer } from "@/server/lib/tax-payer";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Form 1099-INT for savings interest (decision 070): the yearly run issues a form to every customer
// paid $10.00 or more in the year, exactly once; a changed amount gets a CORRECTED form; the customer downloads
// their own PDF from Statements; finance exports the Publication 1220 file. Every test ends with the ledger verified.
const PAYER_ENV = {
  PAYER_NAME: "Pillar Bank, N.A.",
  PAYER_TIN: "987654321",
  PAYER_STREET: "1 Pillar Plaza",
  PAYER_CITY: "New York",
  PAYER_STATE: "NY",
  PAYER_ZIP: "100010001",
  PAYER_PHONE: "2125550100",
  IRS_TCC: "9AB12",
};
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", ...PAYER_ENV });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
const payer = parseTaxPayer(PAYER_ENV).payer;
const YEAR = 2025;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-1099-"));

function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(outDir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  if (process.env.KEEP_PDF_DIR) fs.copyFileSync(file, path.join(process.env.KEEP_PDF_DIR, `${name}.pdf`));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const get = (who: SignedInUser, url: string) =>
  t.app.inject({ method: "GET", url, headers: { cookie: who.cookie } });
const startRun = (who: SignedInUser, year: number) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/tax-forms/runs",
    headers: { cookie: who.cookie },
    payload: { year },
  });

/** A saver with `amount` in savings from 1 January of YEAR (New York), and a real sealed SSN on their KYC. */
async function createSaver(
  amount: string,
  ssn: string,
  input: { firstName?: string; lastName?: string } = {},
) {
  const customer = await createApprovedCustomer(t.database, input);
  await t.database.query(
    "update kyc_applications set ssn_ciphertext = $2, ssn_last4 = $3, street = '12 Elm St Apt 4', city = 'Brooklyn', state = 'NY', zip_code = '11201' where user_id = $1",
    [customer.user.id, encryptField(t.app.deps.config.dataKey, ssn), ssn.slice(-4)],
  );
  await fundCustomer(t, admin, customer.user.id, amount);
  const opened = await openSavings(t.database.db, customer.user.id, new Date(`${YEAR}-01-01T05:00:00Z`));
  const moved = await moveSavings(
    t.database.db,
    customer.user.id,
    { direction: "to_savings", amount },
    `saver-${customer.user.id}`,
    new Date(`${YEAR}-01-01T05:00:00.000Z`),
  );
  expect(moved.statusCode).toBe(201);
  return { customer, accountId: opened.account!.id };
}

/** The cents credited for YEAR's months on the account (the monthly credits' own record). */
async function creditedInYear(accountId: string): Promise<number> {
  const rows = await t.database.query(
    `select coalesce(sum(credited_cents), 0)::int as cents from savings_interest
      where account_id = $1 and month >= make_date($2, 1, 1) and month < make_date($2 + 1, 1, 1)`,
    [accountId, YEAR],
  );
  return (rows[0] as { cents: number }).cents;
}

/** Splits a Publication 1220 file into its records, checking each is exactly 750 bytes ending in CR LF. */
function records(text: string): string[] {
  expect(text.length % RECORD_LENGTH).toBe(0);
  const list: string[] = [];
  for (let at = 0; at < text.length; at += RECORD_LENGTH) {
    const record = text.slice(at, at + RECORD_LENGTH);
    expect(record.length).toBe(RECORD_LENGTH);
    expect(record.slice(748)).toBe("\r\n");
    expect(record.slice(0, 748)).not.toMatch(/[\r\n]/);
    // eslint-style ASCII check: Pub 1220 files are plain ASCII.
    expect(/^[\x20-\x7e]*$/.test(record.slice(0, 748))).toBe(true);
    list.push(record);
  }
  return list;
}
/** 1-based positions as Pub 1220 prints them. */
const field = (record: string, from: number, length: number) => record.slice(from - 1, from - 1 + length);

let saverA: Awaited<ReturnType<typeof createSaver>>;
let saverB: Awaited<ReturnType<typeof createSaver>>;
let saverC: Awaited<ReturnType<typeof createSaver>>;
let finance: SignedInUser;
let formIdA: string;

describe("the yearly Form 1099-INT run", () => {
  it("refuses an open year and a year whose interest is not all credited, then issues forms exactly once", async () => {
    finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    saverA = await createSaver("10000.00", "123-45-6789");
    // $300.00 all year earns about $7.50: under the $10.00 line, no form.
    saverB = await createSaver("300.00", "987-65-4321");
    // $1,000.00 earns about $25.00; a surname with an accent and a hyphen, as Pub 1220 must write it.
    saverC = await createSaver("1000.00", "222-33-4444", { firstName: "Zoë", lastName: "Núñez-Ortiz" });

    const open = await startRun(finance, new Date().getUTCFullYear());
    expect(open.statusCode).toBe(409);
    expect(open.json().message).toBe("That tax year is not over yet: its forms could still change");
    const pending = await startRun(finance, YEAR);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().message).toBe(
      "Interest for that tax year is not all credited yet: run the interest job first",
    );
    const notAYear = await startRun(finance, 1999);
    expect(notAYear.statusCode).toBe(400);
    const support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    expect((await startRun(support, YEAR)).statusCode).toBe(403);

    await accrueInterestThrough(t.database.db, `${YEAR}-12-31`);
    const centsA = await creditedInYear(saverA.accountId);
    const centsB = await creditedInYear(saverB.accountId);
    const centsC = await creditedInYear(saverC.accountId);
    expect(Math.abs(centsC - 2_500)).toBeLessThanOrEqual(1);
    expect(Math.abs(centsA - 25_000)).toBeLessThanOrEqual(1);
    expect(centsB).toBeLessThan(1000);

    // Finance starts it; the jobs room's passes (run here by hand, as three instances would) work it.
    const started = await startRun(finance, YEAR);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ taxYear: YEAR, canRun: true, blockedReason: null });
    expect(started.json().runs[0]).toMatchObject({ runNumber: 1, status: "running", done: 0 });
    const again = await startRun(finance, YEAR);
    expect(again.json().runs).toHaveLength(1);
    const passes = await Promise.all([1, 2, 3].map(() => taxFormRunPass(t.database.db, payer, 1)));
    expect(passes.filter((p) => p.done > 0).length).toBeGreaterThan(0);
    for (;;) {
      const pass = await taxFormRunPass(t.database.db, payer, 1);
      if (!pass.run) break;
    }

    // Without a year: the last one over in New York.
    const lastYear = (await get(finance, "/api/admin/tax-forms/runs")).json();
    expect(lastYear.taxYear).toBe(
      Number(new Date().toLocaleString("en-US", { timeZone: "America/New_York", year: "numeric" })) - 1,
    );
    const status = await get(finance, `/api/admin/tax-forms/runs?year=${YEAR}`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      taxYear: YEAR,
      canRun: true,
      blockedReason: null,
      runs: [
        expect.objectContaining({
          runNumber: 1,
          status: "done",
          total: 3,
          done: 3,
          formsIssued: 2,
          corrections: 0,
          finishedAt: expect.any(String),
        }),
      ],
      forms: {
        count: 2,
        corrected: 0,
        interestCents: centsA + centsC,
        interest: formatMoney(centsA + centsC),
      },
    });

    const stored = await t.database.query(
      "select user_id::text as user_id, sequence, interest_cents::int as cents, tin_last4, recipient_name from tax_forms where tax_year = $1 order by tin_last4",
      [YEAR],
    );
    expect(stored).toEqual([
      {
        user_id: saverC.customer.user.id,
        sequence: 1,
        cents: centsC,
        tin_last4: "4444",
        recipient_name: "Zoë Núñez-Ortiz",
      },
      {
        user_id: saverA.customer.user.id,
        sequence: 1,
        cents: centsA,
        tin_last4: "6789",
        recipient_name: `${saverA.customer.user.firstName} ${saverA.customer.user.lastName}`,
      },
    ]);

    // Run again with nothing changed: a new run, no form issued twice.
    const rerun = await runTaxFormsToEnd(t.database.db, payer, YEAR);
    expect(rerun).toMatchObject({ runNumber: 2, status: "done", formsIssued: 0, corrections: 0 });
    const count = await t.database.query("select count(*)::int as n from tax_forms where tax_year = $1", [
      YEAR,
    ]);
    expect(count[0]).toEqual({ n: 2 });
  });
});

describe("the customer's Form 1099-INT in Statements", () => {
  it("lists and downloads their own form, TIN masked but the last four, and 404s another customer's", async () => {
    const list = await get(saverA.customer, "/api/statements/tax-forms");
    expect(list.statusCode).toBe(200);
    const cents = await creditedInYear(saverA.accountId);
    expect(list.json().forms).toEqual([
      {
        id: expect.any(String),
        taxYear: YEAR,
        corrected: false,
        superseded: false,
        interest: formatMoney(cents),
        interestCents: cents,
        issuedAt: expect.any(String),
      },
    ]);
    formIdA = list.json().forms[0].id;
    expect((await get(saverB.customer, "/api/statements/tax-forms")).json()).toEqual({ forms: [] });

    const pdf = await get(saverA.customer, `/api/statements/tax-forms/${formIdA}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="pillar-1099-int-${YEAR}.pdf"`);
    const text = pdfText(pdf.rawPayload, "form-a");
    expect(text).toContain("Form 1099-INT");
    expect(text).toContain(`For calendar year ${YEAR}`);
    expect(text).toContain("CORRECTED (if checked)");
    expect(text).not.toContain("CORRECTED (checked)");
    expect(text).toContain("Pillar Bank, N.A.");
    expect(text).toContain("1 Pillar Plaza");
    expect(text).toContain("New York, NY 10001-0001");
    expect(text).toContain("(212) 555-0100");
    expect(text).toContain("98-7654321");
    expect(text).toContain("***-**-6789");
    expect(text).not.toContain("123-45-6789");
    expect(text).not.toContain("123456789");
    expect(text).toContain(`${saverA.customer.user.firstName} ${saverA.customer.user.lastName}`);
    expect(text).toContain("12 Elm St Apt 4");
    expect(text).toContain("Brooklyn, NY 11201");
    expect(text).toMatch(new RegExp(`1 Interest income[\\s\\S]*\\${formatMoney(cents)}`));

    expect((await get(saverB.customer, `/api/statements/tax-forms/${formIdA}.pdf`)).statusCode).toBe(404);
    expect((await get(admin, `/api/statements/tax-forms/${formIdA}.pdf`)).statusCode).toBe(404);
    expect((await get(saverA.customer, "/api/statements/tax-forms/not-a-uuid.pdf")).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: "GET", url: `/api/statements/tax-forms/${formIdA}.pdf` })).statusCode,
    ).toBe(401);
  });
});

describe("the Publication 1220 file", () => {
  it("writes 750-byte T, A, B, C, F records whose counts and control total match the forms", async () => {
    const res = await get(finance, `/api/admin/tax-forms/pub1220?year=${YEAR}&test=1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const list = records(res.body);
    expect(list.map((r) => r[0]).join("")).toBe("TABBCF");
    // Record sequence numbers (positions 500–507) run 1, 2, 3… with no gap.
    expect(list.map((r) => Number(field(r, 500, 8)))).toEqual([1, 2, 3, 4, 5, 6]);
    const [tRec, aRec] = list as [string, string];
    const cRec = list.at(-2)!;
    const fRec = list.at(-1)!;
    const bRec = list.find((r) => r[0] === "B" && field(r, 12, 9) === "123456789")!;
    const bRecC = list.find((r) => r[0] === "B" && field(r, 12, 9) === "222334444")!;
    expect(field(bRecC, 7, 4)).toBe("NUNE");
    expect(field(bRecC, 248, 40).trimEnd()).toBe("ZOE NUNEZ-ORTIZ");
    expect(field(tRec, 2, 4)).toBe(String(YEAR));
    expect(field(tRec, 7, 9)).toBe("987654321");
    expect(field(tRec, 16, 5)).toBe("9AB12");
    expect(field(tRec, 28, 1)).toBe("T");
    expect(field(tRec, 30, 40).trimEnd()).toBe("PILLAR BANK NA");
    expect(Number(field(tRec, 296, 8))).toBe(2);
    expect(field(tRec, 518, 1)).toBe("I");
    expect(field(aRec, 12, 9)).toBe("987654321");
    expect(field(aRec, 26, 2)).toBe("6 ");
    expect(field(aRec, 28, 16).trimEnd()).toBe("1");
    expect(field(aRec, 6, 1)).toBe(" ");

    const cents = await creditedInYear(saverA.accountId);
    expect(field(bRec, 2, 4)).toBe(String(YEAR));
    expect(field(bRec, 6, 1)).toBe(" ");
    expect(field(bRec, 7, 4)).toBe(
      saverA.customer.user.lastName
        .toUpperCase()
        .replace(/[^A-Z]/g, "")
        .slice(0, 4),
    );
    expect(field(bRec, 11, 1)).toBe("2");
    expect(field(bRec, 12, 9)).toBe("123456789");
    expect(field(bRec, 55, 12)).toBe(String(cents).padStart(12, "0"));
    expect(field(bRec, 67, 180)).toBe("0".repeat(180));
    expect(field(bRec, 368, 40).trimEnd()).toBe("12 ELM ST APT 4");
    expect(field(bRec, 448, 40).trimEnd()).toBe("BROOKLYN");
    expect(field(bRec, 488, 2)).toBe("NY");
    expect(field(bRec, 490, 9).trimEnd()).toBe("11201");

    // C: the B count and Box 1's control total; F: one A record and the B count.
    const bRecords = list.filter((r) => r[0] === "B");
    expect(Number(field(cRec, 2, 8))).toBe(bRecords.length);
    expect(Number(field(cRec, 16, 18))).toBe(bRecords.reduce((sum, r) => sum + Number(field(r, 55, 12)), 0));
    expect(Number(field(fRec, 2, 8))).toBe(1);
    expect(Number(field(fRec, 50, 8))).toBe(bRecords.length);

    // The export of every payee's full TIN is audited.
    const audited = await t.database.query(
      "select action, target_id from audit_log where actor_id = $1 and action = 'tax_forms.pub1220_exported'",
      [finance.user.id],
    );
    expect(audited).toEqual([{ action: "tax_forms.pub1220_exported", target_id: String(YEAR) }]);
  });
});

describe("corrections", () => {
  it("issues a CORRECTED form to a customer whose amount changed, keeps the old one, and reissues nothing else", async () => {
    // A late interest adjustment for A, dated in the year (payable → savings, as a month's credit posts it).
    const adjustment = 37;
    await t.database.query(
      `with accrued as (
         insert into journal_entries (kind, description, reference_type, reference_id)
         values ('interest_accrued', 'Interest adjustment', 'savings_interest', $1 || ':adjustment') returning id),
       paid as (
         insert into journal_entries (kind, description, reference_type, reference_id)
         values ('interest_paid', 'Interest adjustment', 'savings_interest', $1 || ':adjustment') returning id)
       insert into postings (entry_id, account_id, amount, created_at)
       select (select id from accrued), (select id from ledger_accounts where code = 'interest_expense'), -$2::bigint, $3::timestamptz
       union all select (select id from accrued), (select id from ledger_accounts where code = 'interest_payable'), $2::bigint, $3::timestamptz
       union all select (select id from paid), (select id from ledger_accounts where code = 'interest_payable'), -$2::bigint, $3::timestamptz
       union all select (select id from paid), $1::uuid, $2::bigint, $3::timestamptz`,
      [saverA.accountId, adjustment, `${YEAR}-12-15T17:00:00Z`],
    );
    await t.database.query("update ledger_accounts set balance = balance + $2 where id = $1", [
      saverA.accountId,
      adjustment,
    ]);

    const run = await runTaxFormsToEnd(t.database.db, payer, YEAR);
    expect(run).toMatchObject({ runNumber: 3, formsIssued: 0, corrections: 1 });
    const again = await runTaxFormsToEnd(t.database.db, payer, YEAR);
    expect(again).toMatchObject({ runNumber: 4, formsIssued: 0, corrections: 0 });

    const cents = (await creditedInYear(saverA.accountId)) + adjustment;
    const list = (await get(saverA.customer, "/api/statements/tax-forms")).json().forms;
    expect(list).toEqual([
      expect.objectContaining({ taxYear: YEAR, corrected: true, superseded: false, interestCents: cents }),
      expect.objectContaining({
        id: formIdA,
        corrected: false,
        superseded: true,
        interestCents: cents - adjustment,
      }),
    ]);
    const pdf = await get(saverA.customer, `/api/statements/tax-forms/${list[0].id}.pdf`);
    expect(pdf.headers["content-disposition"]).toBe(
      `attachment; filename="pillar-1099-int-${YEAR}-corrected.pdf"`,
    );
    const text = pdfText(pdf.rawPayload, "form-a-corrected");
    expect(text).toContain("CORRECTED (checked)");
    expect(text).toContain(formatMoney(cents));
    // The original stays downloadable as it was issued.
    const original = pdfText(
      (await get(saverA.customer, `/api/statements/tax-forms/${formIdA}.pdf`)).rawPayload,
      "a-orig",
    );
    expect(original).toContain("CORRECTED (if checked)");
    expect(original).toContain(formatMoney(cents - adjustment));

    const status = (await get(finance, `/api/admin/tax-forms/runs?year=${YEAR}`)).json();
    const centsC = await creditedInYear(saverC.accountId);
    expect(status.forms).toEqual({
      count: 2,
      corrected: 1,
      interestCents: cents + centsC,
      interest: formatMoney(cents + centsC),
    });
    expect(status.runs.map((r: { runNumber: number }) => r.runNumber)).toEqual([4, 3, 2, 1]);

    // The corrections file: the corrected return with "G"; the originals file still the original amount.
    const corrections = records(
      (await get(finance, `/api/admin/tax-forms/pub1220?year=${YEAR}&file=corrections`)).body,
    );
    expect(corrections.map((r) => r[0]).join("")).toBe("TABCF");
    const b = corrections[2]!;
    expect(field(b, 6, 1)).toBe("G");
    expect(Number(field(b, 55, 12))).toBe(cents);
    expect(Number(field(corrections[3]!, 16, 18))).toBe(cents);
    expect(field(corrections[0]!, 28, 1)).toBe(" ");
    // The originals file still carries A's original amount, and C's unchanged form only there.
    const originals = records((await get(finance, `/api/admin/tax-forms/pub1220?year=${YEAR}`)).body);
    const originalA = originals.find((r) => r[0] === "B" && field(r, 12, 9) === "123456789")!;
    expect(Number(field(originalA, 55, 12))).toBe(cents - adjustment);
    expect(field(originalA, 6, 1)).toBe(" ");
    expect(Number(field(originals.at(-2)!, 16, 18))).toBe(cents - adjustment + centsC);
  });
});
