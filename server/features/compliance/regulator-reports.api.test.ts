import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { REPORT_MESSAGES, SAR_CATEGORIES } from "@/contract/compliance";
import { auditLog, kycApplications, ofacReports } from "@/server/db/schema";
import { ANNUAL_CSV_HEADER } from "@/server/features/compliance/ofac-reports";
import { encryptField } from "@/server/lib/crypto";
import { xmllintAgainstSchema } from "@/tests/support/fincen-sar-schema";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", FILING_INSTITUTION_EIN: "981234567" });
const admin = setUpAdminUser(t);

let maker: SignedInUser;
let checker: SignedInUser;
let finance: SignedInUser;
beforeAll(async () => {
  maker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
  const loaded = await call("POST", "/api/admin/compliance/lists", maker, uploadBody(listFiles()));
  expect(loaded.statusCode, loaded.body).toBe(200);
});
afterEach(() => {
  vi.useRealTimers();
});

const call = (method: "GET" | "POST" | "PUT", url: string, who: SignedInUser, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload }),
  });

const CASES = "/api/admin/compliance/cases";
const REPORTS = "/api/admin/compliance/ofac-reports";
const DAY_MS = 24 * 60 * 60 * 1000;

/** A funded customer whose transfer to a listed address waits under review, with a real sealed SSN. */
async function heldTransfer(amount = "100.00") {
  const customer = await createFundedCustomer(t, admin, "500.00");
  await t.database.db
    .update(kycApplications)
    .set({ ssnCiphertext: encryptField(t.app.deps.config.dataKey, "123-45-6789"), ssnLast4: "6789" })
    .where(eq(kycApplications.userId, customer.user.id));
  const res = await requestTransfer(t.app, customer, { amount, cryptoAddress: LISTED_ETH });
  expect(res.statusCode, res.body).toBe(201);
  const list = await call("GET", `${CASES}?status=open&limit=200`, maker);
  const found = list
    .json()
    .items.find((c: { customer: { id: string } | null }) => c.customer?.id === customer.user.id);
  return { customer, caseId: found.id as string, transferId: res.json().transferRequest.id as string };
}

/** Proposed by one member, approved by another (decision 032). */
async function decide(caseId: string, body: Record<string, unknown>) {
  const proposed = await call("POST", `${CASES}/${caseId}/decisions`, maker, {
    note: "Reviewed the evidence",
    ...body,
  });
  expect(proposed.statusCode, proposed.body).toBe(200);
  const pending = proposed.json().case.decisions.find((d: { status: string }) => d.status === "pending");
  const approved = await call("POST", `${CASES}/${caseId}/decisions/${pending.id}/approve`, checker, {});
  expect(approved.statusCode, approved.body).toBe(200);
  return approved;
}

/** Runs `fn` with the clock (JavaScript's only; the database keeps its own) at `iso`. */
async function at<T>(iso: string, fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(iso) });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

const FULL_SAR = {
  filingType: "initial",
  subjectIdentified: true,
  categories: ["money_laundering_funds_transfers", "other"],
  otherCategory: "Payment to an OFAC-listed address",
  idType: "drivers_license",
  idNumber: "D1234-5678",
  idIssuerState: "ny",
  idIssuerCountry: "us",
  occupation: "Software engineer",
};

describe("the SAR draft's FinCEN fields", () => {
  it("records them on an open case and shows the SSN and ID number masked", async () => {
    const { caseId } = await heldTransfer();
    const saved = await call("PUT", `${CASES}/${caseId}/sar`, maker, FULL_SAR);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: REPORT_MESSAGES.sarSaved,
      sar: {
        filingType: "initial",
        categories: ["money_laundering_funds_transfers", "other"],
        idNumberMasked: "****5678",
        idIssuerState: "NY",
        idIssuerCountry: "US",
        ssnMasked: "***-**-6789",
        phone: "+1 212 555 0100",
        updatedBy: maker.user.email,
      },
    });
    // Neither the answer nor the audit row carries the full numbers.
    expect(saved.body).not.toContain("D1234-5678");
    expect(saved.body).not.toContain("123456789");
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "compliance.case_sar_details"), eq(auditLog.targetId, caseId)));
    expect(JSON.stringify(audit)).not.toContain("D1234-5678");
    expect(audit!.actorId).toBe(maker.user.id);

    // Absent keeps the number on file; the page never holds it.
    const { idNumber: _kept, ...withoutNumber } = FULL_SAR;
    const again = await call("PUT", `${CASES}/${caseId}/sar`, maker, {
      ...withoutNumber,
      occupation: "Engineer",
    });
    expect(again.json().sar).toMatchObject({ idNumberMasked: "****5678", occupation: "Engineer" });
  });

  it("refuses what FinCEN would refuse, with a clear message, and writes nothing", async () => {
    const { caseId } = await heldTransfer();
    const cases: [Record<string, unknown>, string][] = [
      [{ filingType: "initial", priorReportId: "12345678901234" }, REPORT_MESSAGES.priorReportNotForInitial],
      [{ filingType: "correction" }, REPORT_MESSAGES.priorReportRequired],
      [{ filingType: "continuing", priorReportId: "12345678901234" }, REPORT_MESSAGES.priorFiledOnRequired],
      [{ filingType: "correction", priorReportId: "1234" }, REPORT_MESSAGES.priorReportInvalid],
      [{ filingType: "initial", categories: ["other"] }, REPORT_MESSAGES.otherCategoryRequired],
      [{ filingType: "initial", categories: ["smuggling"] }, REPORT_MESSAGES.categoryUnknown],
      [{ filingType: "initial", idType: "passport", idIssuerState: "ZZ" }, REPORT_MESSAGES.stateInvalid],
      [{ filingType: "initial", idNumber: "A1" }, REPORT_MESSAGES.idTypeRequired],
      [{ filingType: "initial", idType: "passport", idNumber: "<script>" }, REPORT_MESSAGES.idNumberInvalid],
      [{ filingType: "initial", occupation: "x".repeat(51) }, REPORT_MESSAGES.occupationTooLong],
    ];
    for (const [body, message] of cases) {
      const res = await call("PUT", `${CASES}/${caseId}/sar`, maker, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const sar = await call("GET", `${CASES}/${caseId}/sar`, maker);
    expect(sar.json()).toMatchObject({ filingType: "initial", categories: [], updatedAt: null });
    expect((await call("PUT", `${CASES}/not-a-uuid/sar`, maker, FULL_SAR)).statusCode).toBe(400);
    expect((await call("PUT", `${CASES}/${crypto.randomUUID()}/sar`, maker, FULL_SAR)).statusCode).toBe(404);
    expect((await call("PUT", `${CASES}/${caseId}/sar`, finance, FULL_SAR)).statusCode).toBe(403);
  });

  it("runs the clock 30 days from detection, 60 with no suspect, 120 from a prior filing when continuing", async () => {
    const { caseId } = await heldTransfer();
    const detail = (await call("GET", `${CASES}/${caseId}`, maker)).json();
    const due30 = new Date(detail.reportDueAt).getTime();
    await call("PUT", `${CASES}/${caseId}/sar`, maker, { filingType: "initial", subjectIdentified: false });
    const noSuspect = (await call("GET", `${CASES}/${caseId}`, maker)).json();
    expect(new Date(noSuspect.reportDueAt).getTime() - due30).toBe(30 * DAY_MS);
    const queue = (await call("GET", `${CASES}?status=open&limit=200`, maker)).json();
    expect(queue.items.find((c: { id: string }) => c.id === caseId).reportDueAt).toBe(noSuspect.reportDueAt);

    const continuing = await call("PUT", `${CASES}/${caseId}/sar`, maker, {
      filingType: "continuing",
      priorReportId: "31000123456789",
      priorFiledOn: "2026-09-01",
    });
    expect(continuing.statusCode, continuing.body).toBe(200);
    expect(continuing.json().sar).toMatchObject({ reviewOn: "2026-11-30" });
    expect(continuing.json().sar.reportDueAt.slice(0, 10)).toBe("2026-12-31");
  });
});

describe("the SAR export", () => {
  it("refuses the XML until categories, narrative and occupation are there, then files FinCEN's batch", async () => {
    const { customer, caseId } = await heldTransfer("123.45");
    const early = await call("GET", `${CASES}/${caseId}/report.xml`, maker);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain("Suspicious activity categories");
    expect(early.json().message).toContain("Narrative");

    await call("PUT", `${CASES}/${caseId}/sar`, maker, FULL_SAR);
    const narrative = "Who: the customer.\nWhat: a transfer of $123.45 to a listed address & more.";
    await call("PUT", `${CASES}/${caseId}/narrative`, maker, { narrative });
    const res = await call("GET", `${CASES}/${caseId}/report.xml`, maker);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("application/xml");
    expect(res.headers["content-disposition"]).toContain(`pillar-sar-${caseId}.xml`);
    const xml = res.body;
    // Full numbers in the file a filer uploads, nowhere else.
    expect(xml).toContain("<fc2:PartyIdentificationNumberText>123456789</fc2:PartyIdentificationNumberText>");
    expect(xml).toContain(
      "<fc2:PartyIdentificationNumberText>D1234-5678</fc2:PartyIdentificationNumberText>",
    );
    expect(xml).toContain("<fc2:FormTypeCode>SARX</fc2:FormTypeCode>");
    expect(xml).toContain("<fc2:InitialReportIndicator>Y</fc2:InitialReportIndicator>");
    expect(xml).toContain('TotalAmount="124"');
    expect(xml).toContain("<fc2:TotalSuspiciousAmountText>124</fc2:TotalSuspiciousAmountText>");
    expect(xml).toContain(
      `<fc2:SuspiciousActivitySubtypeID>${SAR_CATEGORIES.money_laundering_funds_transfers.subtype}</fc2:SuspiciousActivitySubtypeID>`,
    );
    expect(xml).toContain(
      "<fc2:OtherSuspiciousActivityTypeText>Payment to an OFAC-listed address</fc2:OtherSuspiciousActivityTypeText>",
    );
    expect(xml).toContain(
      `<fc2:RawEntityIndividualLastName>${customer.user.lastName}</fc2:RawEntityIndividualLastName>`,
    );
    expect(xml).toContain("<fc2:OccupationBusinessText>Software engineer</fc2:OccupationBusinessText>");
    expect(xml).toContain("What: a transfer of $123.45 to a listed address &amp; more.");
    expect(xml).toContain("<fc2:PartyIdentificationNumberText>981234567</fc2:PartyIdentificationNumberText>");
    for (const code of ["35", "37", "30", "8", "34", "33"]) {
      expect(xml).toContain(`<fc2:ActivityPartyTypeCode>${code}</fc2:ActivityPartyTypeCode>`);
    }
    const seqs = [...xml.matchAll(/SeqNum="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(xml).not.toMatch(/>(undefined|null|NaN)</);
    // Valid against Pillar's subset of FinCEN's schema, checked by libxml2.
    expect(await xmllintAgainstSchema(xml)).toBe("");

    const [exported] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "compliance.case_report_exported"), eq(auditLog.targetId, caseId)));
    expect(exported).toMatchObject({ actorId: maker.user.id, subjectUserId: customer.user.id });
    expect(exported!.after).toMatchObject({ format: "xml", unmasked: ["ssn", "idNumber"] });
  });

  it("keeps the PDF and JSON masked, with the filing, the categories and the filing institution", async () => {
    const { caseId } = await heldTransfer("50.00");
    await call("PUT", `${CASES}/${caseId}/sar`, maker, FULL_SAR);
    const json = await call("GET", `${CASES}/${caseId}/report.json`, maker);
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json()).toMatchObject({
      filing: { filingType: "initial", subjectIdentified: true },
      filingInstitution: { ein: "981234567" },
      subjectIdentity: {
        ssnMasked: "***-**-6789",
        idNumberMasked: "****5678",
        occupation: "Software engineer",
      },
    });
    expect(json.body).not.toContain("123456789");
    expect(json.body).not.toContain("D1234-5678");

    const pdf = await call("GET", `${CASES}/${caseId}/report.pdf`, maker);
    expect(pdf.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sar-"));
    const file = path.join(dir, "sar.pdf");
    fs.writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("***-**-6789");
    expect(text).toContain("Money laundering: suspicious EFT or funds transfers");
    expect(text).toContain("EIN 981234567");
    expect(text).not.toContain("123456789");
  });

  it("answers another case's or a bad id with 404 or 400, and other roles with 403", async () => {
    expect((await call("GET", `${CASES}/${crypto.randomUUID()}/report.xml`, maker)).statusCode).toBe(404);
    expect((await call("GET", `${CASES}/123/report.xml`, maker)).statusCode).toBe(400);
    const { customer, caseId } = await heldTransfer();
    expect((await call("GET", `${CASES}/${caseId}/report.xml`, finance)).statusCode).toBe(403);
    expect((await call("GET", `${CASES}/${caseId}/report.xml`, customer)).statusCode).toBe(403);
  });
});

describe("OFAC reports of blocked and rejected transactions", () => {
  it("records a block's report due 10 business days on, across a weekend and Thanksgiving", async () => {
    const { caseId, transferId } = await heldTransfer("40.00");
    // Friday 20 November 2026 in New York (a clock moved back: a session never outlives a clock moved on).
    await at("2026-11-20T15:00:00Z", () => decide(caseId, { decision: "block_transfer", transferId }));
    const [report] = await t.database.db
      .select()
      .from(ofacReports)
      .where(eq(ofacReports.transferId, transferId));
    expect(report).toMatchObject({
      kind: "blocked",
      caseId,
      amount: 4000,
      decidedOn: "2026-11-20",
      // 23, 24, 25 (26th Thanksgiving), 27, 30 November, 1, 2, 3, 4, 7 December.
      dueOn: "2026-12-07",
      counterpartyAddress: LISTED_ETH,
    });
    expect(report!.programs).not.toBe("");
    const detail = (await call("GET", `${CASES}/${caseId}`, maker)).json();
    expect(
      detail.decisions.find((d: { transferId: string }) => d.transferId === transferId).reportDueOn,
    ).toBe("2026-12-07");
    await expectLedgerClean(t.database);
  });

  it("records a sanctions rejection as a rejected-transaction report, and lists due reports earliest first", async () => {
    const { caseId, transferId } = await heldTransfer("25.00");
    await decide(caseId, { decision: "reject_transfer", transferId });
    const list = await call("GET", `${REPORTS}?status=due`, maker);
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().items as {
      transferId: string;
      kind: string;
      dueOn: string;
      overdue: boolean;
    }[];
    const rejected = items.find((r) => r.transferId === transferId);
    expect(rejected).toMatchObject({ kind: "rejected", formattedAmount: "$25.00", overdue: false });
    expect(items.map((r) => r.dueOn)).toEqual([...items.map((r) => r.dueOn)].sort());
    expect(list.json().annual).toMatchObject({
      asOf: expect.stringMatching(/-06-30$/),
      dueOn: expect.stringMatching(/-09-30$/),
    });
    expect((await call("GET", REPORTS, finance)).statusCode).toBe(403);
    await expectLedgerClean(t.database);
  });

  it("lets compliance mark a report filed once, with OFAC's reference, audited", async () => {
    const { caseId, transferId } = await heldTransfer("30.00");
    await decide(caseId, { decision: "reject_transfer", transferId });
    const [report] = await t.database.db
      .select()
      .from(ofacReports)
      .where(eq(ofacReports.transferId, transferId));
    const url = `${REPORTS}/${report!.id}/filed`;
    const early = await call("POST", url, maker, { reference: "OFAC-1", filedOn: "2020-01-01" });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(REPORT_MESSAGES.filedOnInvalid);
    expect((await call("POST", url, maker, { reference: "x", filedOn: report!.decidedOn })).statusCode).toBe(
      400,
    );
    expect(
      (await call("POST", url, finance, { reference: "OFAC-1", filedOn: report!.decidedOn })).statusCode,
    ).toBe(403);
    const filed = await call("POST", url, maker, {
      reference: " OFAC-2026-0042 ",
      filedOn: report!.decidedOn,
    });
    expect(filed.statusCode, filed.body).toBe(200);
    expect(filed.json().report).toMatchObject({
      filedReference: "OFAC-2026-0042",
      filedBy: maker.user.email,
    });
    const again = await call("POST", url, checker, { reference: "OFAC-2", filedOn: report!.decidedOn });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REPORT_MESSAGES.reportFiled);
    const due = (await call("GET", `${REPORTS}?status=due`, maker)).json().items;
    expect(due.some((r: { id: string }) => r.id === report!.id)).toBe(false);
    const filedList = (await call("GET", `${REPORTS}?status=filed`, maker)).json().items;
    expect(filedList[0]).toMatchObject({ id: report!.id, filedReference: "OFAC-2026-0042" });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "compliance.ofac_report_filed"), eq(auditLog.targetId, report!.id)));
    expect(audit).toMatchObject({ actorId: maker.user.id });
    expect(
      (
        await call("POST", `${REPORTS}/${crypto.randomUUID()}/filed`, maker, {
          reference: "OFAC-1",
          filedOn: "2026-01-02",
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call("POST", `${REPORTS}/nope/filed`, maker, { reference: "OFAC-1", filedOn: "2026-01-02" }))
        .statusCode,
    ).toBe(400);
  });

  it("lists in the annual report exactly the blocked items held on June 30", async () => {
    const before = await heldTransfer("11.00");
    const onTheDay = await heldTransfer("22.00");
    const after = await heldTransfer("33.00");
    const rejected = await heldTransfer("44.00");
    await at("2026-05-14T15:00:00Z", () =>
      decide(before.caseId, { decision: "block_transfer", transferId: before.transferId }),
    );
    // 11 p.m. in New York on June 30 is already July 1 in UTC: the bank's day counts.
    await at("2026-07-01T03:00:00Z", () =>
      decide(onTheDay.caseId, { decision: "block_transfer", transferId: onTheDay.transferId }),
    );
    await at("2026-07-01T15:00:00Z", () =>
      decide(after.caseId, { decision: "block_transfer", transferId: after.transferId }),
    );
    await at("2026-06-01T15:00:00Z", () =>
      decide(rejected.caseId, { decision: "reject_transfer", transferId: rejected.transferId }),
    );
    const res = await call("GET", `${REPORTS}/annual.csv?year=2026`, maker);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const lines = res.body.trim().split("\r\n");
    const rows = lines.slice(1, -1);
    // Earlier tests of this file blocked only after June 30, 2026.
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(before.transferId);
    expect(rows[1]).toContain(onTheDay.transferId);
    expect(lines[0]).toBe(ANNUAL_CSV_HEADER.join(","));
    expect(rows[0]).toContain("11.00");
    expect(rows[1]).toContain("22.00");
    expect(lines.at(-1)).toContain("2 items");
    expect(lines.at(-1)).toContain("33.00");
    expect((await call("GET", `${REPORTS}/annual.csv?year=1999`, maker)).statusCode).toBe(400);
    expect((await call("GET", `${REPORTS}/annual.csv?year=2099`, maker)).statusCode).toBe(400);
    expect((await call("GET", `${REPORTS}/annual.csv?year=2026`, finance)).statusCode).toBe(403);
    await expectLedgerClean(t.database);
  });
});
