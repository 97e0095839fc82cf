import { describe, expect, it } from "vitest";
import type { SarReport } from "@/contract/compliance";
import type { SarExport } from "@/server/features/compliance/sar-report";
import { buildSarBatch, checkSarBatch, writeSarBatch } from "@/server/features/compliance/sar-xml";
import { parseFilingInstitution } from "@/server/lib/filing-institution";
import { xmllintAgainstSchema } from "@/tests/support/fincen-sar-schema";

const institution = parseFilingInstitution({}).institution;

function sar(
  overrides: Partial<SarReport["filing"]> = {},
  narrative = "Who: the subject.\nWhat: $10.",
): SarExport {
  const report: SarReport = {
    caseId: "00000000-0000-4000-8000-000000000001",
    status: "open",
    filed: false,
    generatedAt: "2026-11-29T15:00:00.000Z",
    firstDetectedAt: "2026-11-20T15:00:00.000Z",
    reportDueAt: "2026-12-20T15:00:00.000Z",
    subject: {
      id: "00000000-0000-4000-8000-000000000002",
      firstName: "Omar",
      lastName: "  Khalil ",
      email: "omar@example.com",
      dateOfBirth: "1988-04-02",
      address: "1 Main St, New York, NY 10001",
      accountNumber: "123456789",
    },
    activity: {
      from: "2026-11-20T15:00:00.000Z",
      to: "2026-11-21T15:00:00.000Z",
      totalAmount: "10.01",
      transfers: [],
      moneyInTotal: "0.00",
      moneyIn: [],
    },
    evidence: [],
    relatedCustomers: [],
    narrative,
    decision: null,
    filing: {
      filingType: "initial",
      filingTypeLabel: "Initial report",
      priorReportId: null,
      priorFiledOn: null,
      reviewOn: null,
      subjectIdentified: true,
      categories: [{ key: "identity_theft", label: "Identity theft" }],
      otherCategory: null,
      missing: [],
      ...overrides,
    },
    filingInstitution: {
      name: institution.name,
      ein: institution.ein,
      address: "",
      regulator: institution.regulator,
      contactOffice: institution.contactOffice,
      contactPhone: institution.contactPhone,
    },
    subjectIdentity: {
      ssnMasked: "***-**-6789",
      phone: "+1 (212) 555-0100",
      occupation: "Pharmacist",
      idType: null,
      idTypeLabel: null,
      idNumberMasked: null,
      idIssuerState: null,
      idIssuerCountry: null,
    },
  };
  return {
    report,
    institution,
    ssn: "123456789",
    idNumber: null,
    record: null,
    address: { street: "1 Main St", city: "New York", state: "NY", zip: "10001" },
  };
}

describe("FinCEN's SAR batch", () => {
  it("builds a batch its checks accept, values trimmed, amounts in whole dollars rounded up", async () => {
    const batch = buildSarBatch(sar());
    expect(checkSarBatch(batch)).toEqual([]);
    const xml = writeSarBatch(batch);
    expect(await xmllintAgainstSchema(xml)).toBe("");
    expect(xml).toContain("<fc2:RawEntityIndividualLastName>Khalil</fc2:RawEntityIndividualLastName>");
    expect(xml).toContain("<fc2:TotalSuspiciousAmountText>11</fc2:TotalSuspiciousAmountText>");
    expect(xml).toContain("<fc2:PhoneNumberText>12125550100</fc2:PhoneNumberText>");
    expect(xml).toContain(
      "<fc2:IdentificationPresentUnknownIndicator>Y</fc2:IdentificationPresentUnknownIndicator>",
    );
    expect(xml).toContain('PartyCount="1"');
    const seqs = [...xml.matchAll(/SeqNum="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it("splits a long narrative into FinCEN's 4,000-character parts, at most five", async () => {
    const batch = buildSarBatch(sar({}, "x".repeat(20_000)));
    expect(checkSarBatch(batch)).toEqual([]);
    const parts = [...writeSarBatch(batch).matchAll(/<fc2:ActivityNarrativeText>(x+)</g)].map(
      (m) => m[1]!.length,
    );
    expect(parts).toEqual([4000, 4000, 4000, 4000, 4000]);
  });

  it("marks a continuing report with the prior report's BSA ID, and refuses one without it", async () => {
    const continuing = buildSarBatch(sar({ filingType: "continuing", priorReportId: "31000123456789" }));
    expect(checkSarBatch(continuing)).toEqual([]);
    expect(await xmllintAgainstSchema(writeSarBatch(continuing))).toBe("");
    expect(writeSarBatch(continuing)).toContain(
      "<fc2:EFilingPriorDocumentNumber>31000123456789</fc2:EFilingPriorDocumentNumber>",
    );
    const broken = buildSarBatch(sar({ filingType: "correction", priorReportId: "12" }));
    expect(checkSarBatch(broken)).toContain("EFilingPriorDocumentNumber is 14 digits");
  });

  it("refuses a batch without categories, a required party, or with a repeated category", async () => {
    expect(checkSarBatch(buildSarBatch(sar({ categories: [] })))).toContain(
      "1 to 99 SuspiciousActivityClassification",
    );
    const twice = buildSarBatch(
      sar({
        categories: [
          { key: "identity_theft", label: "Identity theft" },
          { key: "identity_theft", label: "Identity theft" },
        ],
      }),
    );
    expect(checkSarBatch(twice)).toContain("A SuspiciousActivitySubtypeID is repeated");
    // The schema refuses the same, so its checks are not vacuous.
    expect(await xmllintAgainstSchema(writeSarBatch(twice))).toContain("OneSubtypeEach");
    const batch = buildSarBatch(sar());
    const activity = batch.children!.find((c) => c.name === "Activity")!;
    activity.children = activity.children!.filter(
      (c) => !(c.name === "Party" && c.children?.[0]?.text === "30"),
    );
    expect(checkSarBatch(batch)).toContain("Party 30 (filing institution) is required");
  });

  it("reports a deleted customer with FinCEN's all-information-unavailable box", async () => {
    const x = sar();
    x.report.subject = null;
    x.report.subjectIdentity = null;
    const batch = buildSarBatch(x);
    expect(checkSarBatch(batch)).toEqual([]);
    expect(await xmllintAgainstSchema(writeSarBatch(batch))).toBe("");
    expect(writeSarBatch(batch)).toContain(
      "<fc2:AllCriticalSubjectInformationUnavailableIndicator>Y</fc2:AllCriticalSubjectInformationUnavailableIndicator>",
    );
  });
});

describe("the filing institution's configuration", () => {
  it("takes embedded defaults, and names the variable whose value FinCEN would refuse", () => {
    expect(parseFilingInstitution({}).problems).toEqual([]);
    const parsed = parseFilingInstitution({
      FILING_INSTITUTION_EIN: "12-3456789",
      FILING_INSTITUTION_STATE: "ny",
      FILING_INSTITUTION_TCC: "short",
      FILING_INSTITUTION_REGULATOR: "5",
    });
    expect(parsed.institution.state).toBe("NY");
    expect(parsed.problems).toEqual([
      "FILING_INSTITUTION_EIN must be 9 digits, no hyphen",
      "FILING_INSTITUTION_REGULATOR must be one of FinCEN's regulator codes (1, 2, 3, 4, 6, 7, 9, 13, 99)",
      "FILING_INSTITUTION_TCC must be 8 letters or digits",
    ]);
  });
});
