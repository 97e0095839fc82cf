import { SAR_CATEGORIES } from "@/contract/compliance";
import { bankToday } from "@/contract/kyc";
import type { SarExport } from "@/server/features/compliance/sar-report";

/**
 * FinCEN's SAR batch XML (EFilingBatchXML, form type SARX; FinCEN SAR XML Schema 2.0 User Guide), built from
 * the draft (decision 055). Elements go in the schema's order (a base type's elements before its extension's),
 * every element carries a SeqNum unique in the file, and the tree is checked before it is written: what
 * `checkSarBatch` checks is listed in decision 055.
 */

interface XmlNode {
  name: string;
  seq?: boolean;
  attrs?: Record<string, string | number>;
  text?: string;
  children?: XmlNode[];
}

const el = (name: string, children: (XmlNode | null | false)[]): XmlNode => ({
  name,
  seq: true,
  children: children.filter((c): c is XmlNode => !!c),
});
const val = (name: string, text: string): XmlNode => ({ name, text });
const opt = (name: string, text: string | null | undefined): XmlNode | null =>
  text === null || text === undefined || text === "" ? null : val(name, text);
const yes = (name: string) => val(name, "Y");

/** Value limits from the user guide's element table; the narrative alone may hold line breaks. */
const MAX_LENGTH: Record<string, number> = {
  RawCountryCodeText: 2,
  OtherIssuerCountryText: 2,
  RawStateCodeText: 3,
  OtherIssuerStateText: 3,
  PhoneNumberExtensionText: 6,
  RawZIPCode: 9,
  TotalSuspiciousAmountText: 15,
  PhoneNumberText: 16,
  PartyIdentificationNumberText: 25,
  SubjectRelationshipFinancialInstitutionTINText: 25,
  RawIndividualFirstName: 35,
  AccountNumberText: 40,
  RawCityText: 50,
  OccupationBusinessText: 50,
  OtherPartyIdentificationTypeText: 50,
  OtherSuspiciousActivityTypeText: 50,
  RawStreetAddress1Text: 100,
  RawEntityIndividualLastName: 150,
  RawPartyFullName: 150,
  ElectronicAddressText: 517,
  ActivityNarrativeText: 4000,
};
const DATE_ELEMENTS = new Set([
  "FilingDateText",
  "SuspiciousActivityFromDateText",
  "SuspiciousActivityToDateText",
  "IndividualBirthDateText",
]);
const NARRATIVE_PART = 4000;
const NARRATIVE_PARTS = 5;

// Control characters (C0 and DEL), built from a string so the lint's rule against them in regex literals holds.
const CONTROL = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(31)}${String.fromCharCode(127)}]`,
  "g",
);

/** FinCEN refuses values with leading or trailing spaces, or with line breaks and tabs (the narrative aside). */
const clean = (v: string, max: number) =>
  v.replace(CONTROL, " ").replace(/\s+/g, " ").trim().slice(0, max).trim();
const digits = (v: string | null | undefined) => (v ?? "").replace(/\D/g, "");
const yyyymmdd = (iso: string) => iso.slice(0, 10).replace(/-/g, "");
const newYorkDay = (iso: string) => bankToday(new Date(iso));

function narrativeParts(text: string): string[] {
  const body = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(CONTROL, " "))
    .join("\n")
    .trim();
  const parts: string[] = [];
  for (let at = 0; at < body.length && parts.length < NARRATIVE_PARTS; at += NARRATIVE_PART) {
    parts.push(body.slice(at, at + NARRATIVE_PART));
  }
  return parts;
}

function institutionAddress(i: SarExport["institution"]): XmlNode {
  return el("Address", [
    val("RawCityText", clean(i.city, 50)),
    val("RawCountryCodeText", "US"),
    val("RawStateCodeText", i.state),
    val("RawStreetAddress1Text", clean(i.street, 100)),
    val("RawZIPCode", i.zip),
  ]);
}

function fullName(name: string): XmlNode {
  return el("PartyName", [val("PartyNameTypeCode", "L"), val("RawPartyFullName", clean(name, 150))]);
}

function subjectParty(x: SarExport): XmlNode {
  const subject = x.report.subject;
  const identity = x.report.subjectIdentity;
  const record = x.record;
  if (!subject || !identity) {
    // A deleted customer: FinCEN's "all critical subject information unavailable" box, and nothing else.
    return el("Party", [
      val("ActivityPartyTypeCode", "33"),
      yes("AllCriticalSubjectInformationUnavailableIndicator"),
    ]);
  }
  const idCode = { drivers_license: "5", passport: "6", alien_registration: "7", other: "999" } as const;
  const phone = digits(identity.phone);
  return el("Party", [
    val("ActivityPartyTypeCode", "33"),
    subject.dateOfBirth ? null : yes("BirthDateUnknownIndicator"),
    opt("IndividualBirthDateText", subject.dateOfBirth ? yyyymmdd(subject.dateOfBirth) : null),
    x.report.activity.transfers.length + x.report.activity.moneyIn.length === 0 && !subject.accountNumber
      ? yes("NoKnownAccountInvolvedIndicator")
      : null,
    el("PartyName", [
      val("PartyNameTypeCode", "L"),
      val("RawEntityIndividualLastName", clean(subject.lastName, 150)),
      val("RawIndividualFirstName", clean(subject.firstName, 35)),
    ]),
    x.address
      ? el("Address", [
          val("RawCityText", clean(x.address.city, 50)),
          val("RawCountryCodeText", "US"),
          val("RawStateCodeText", clean(x.address.state, 3)),
          val("RawStreetAddress1Text", clean(x.address.street, 100)),
          val("RawZIPCode", digits(x.address.zip).slice(0, 9)),
        ])
      : el("Address", [
          yes("CityUnknownIndicator"),
          yes("CountryCodeUnknownIndicator"),
          yes("StateCodeUnknownIndicator"),
          yes("StreetAddressUnknownIndicator"),
          yes("ZIPCodeUnknownIndicator"),
        ]),
    phone ? el("PhoneNumber", [val("PhoneNumberText", phone.slice(-16))]) : null,
    x.ssn
      ? el("PartyIdentification", [
          val("PartyIdentificationNumberText", x.ssn),
          val("PartyIdentificationTypeCode", "1"),
        ])
      : el("PartyIdentification", [yes("TINUnknownIndicator")]),
    record?.idType && x.idNumber
      ? el("PartyIdentification", [
          opt("OtherIssuerCountryText", record.idIssuerCountry),
          opt("OtherIssuerStateText", record.idIssuerState),
          record.idType === "other" ? opt("OtherPartyIdentificationTypeText", record.idOtherType) : null,
          val("PartyIdentificationNumberText", clean(x.idNumber, 25)),
          val("PartyIdentificationTypeCode", idCode[record.idType]),
        ])
      : el("PartyIdentification", [yes("IdentificationPresentUnknownIndicator")]),
    identity.occupation
      ? el("PartyOccupationBusiness", [val("OccupationBusinessText", clean(identity.occupation, 50))])
      : null,
    el("ElectronicAddress", [
      val("ElectronicAddressText", clean(subject.email, 517)),
      val("ElectronicAddressTypeCode", "E"),
    ]),
    el("PartyAssociation", [
      yes("CustomerIndicator"),
      val("SubjectRelationshipFinancialInstitutionTINText", x.institution.ein),
    ]),
    subject.accountNumber
      ? el("PartyAccountAssociation", [
          val("PartyAccountAssociationTypeCode", "7"),
          el("Party", [
            val("ActivityPartyTypeCode", "41"),
            el("PartyIdentification", [
              val("PartyIdentificationNumberText", x.institution.ein),
              val("PartyIdentificationTypeCode", "2"),
            ]),
            el("Account", [
              val("AccountNumberText", clean(subject.accountNumber, 40)),
              el("PartyAccountAssociation", [val("PartyAccountAssociationTypeCode", "5")]),
            ]),
          ]),
        ])
      : null,
  ]);
}

/** Cents to FinCEN's whole dollars, rounded up (a cent of suspicious money still counts). */
const wholeDollars = (decimal: string) => Math.ceil(Number(decimal.replace(/,/g, "")));

/** The batch as a tree: one Activity with its six kinds of party, the activity, its categories and narrative. */
export function buildSarBatch(x: SarExport, now = new Date()): XmlNode {
  const { report, institution: i } = x;
  const total = wholeDollars(report.activity.totalAmount) + wholeDollars(report.activity.moneyInTotal);
  const from = report.activity.from ?? report.firstDetectedAt;
  const to = report.activity.to ?? report.firstDetectedAt;
  const filingType = report.filing.filingType;
  const activity = el("Activity", [
    filingType === "initial" ? null : val("EFilingPriorDocumentNumber", report.filing.priorReportId ?? ""),
    val("FilingDateText", yyyymmdd(bankToday(now))),
    el("ActivityAssociation", [
      filingType === "continuing" ? yes("ContinuingActivityReportIndicator") : null,
      filingType === "correction" ? yes("CorrectsAmendsPriorReportIndicator") : null,
      filingType === "initial" ? yes("InitialReportIndicator") : null,
    ]),
    el("Party", [
      val("ActivityPartyTypeCode", "35"),
      fullName(i.name),
      institutionAddress(i),
      el("PhoneNumber", [val("PhoneNumberText", i.contactPhone)]),
      el("PartyIdentification", [
        val("PartyIdentificationNumberText", i.transmitterControlCode),
        val("PartyIdentificationTypeCode", "28"),
      ]),
      el("PartyIdentification", [
        val("PartyIdentificationNumberText", i.ein),
        val("PartyIdentificationTypeCode", "4"),
      ]),
    ]),
    el("Party", [val("ActivityPartyTypeCode", "37"), fullName(i.contactOffice)]),
    el("Party", [
      val("ActivityPartyTypeCode", "30"),
      val("PrimaryRegulatorTypeCode", i.regulator),
      fullName(i.name),
      institutionAddress(i),
      el("PartyIdentification", [
        val("PartyIdentificationNumberText", i.ein),
        val("PartyIdentificationTypeCode", "2"),
      ]),
      el("OrganizationClassificationTypeSubtype", [val("OrganizationTypeID", "2")]),
    ]),
    el("Party", [
      val("ActivityPartyTypeCode", "8"),
      fullName(i.contactOffice),
      el("PhoneNumber", [val("PhoneNumberText", i.contactPhone)]),
    ]),
    el("Party", [
      val("ActivityPartyTypeCode", "34"),
      // An online bank: the activity happened at no branch.
      yes("NoBranchActivityInvolvedIndicator"),
      val("PrimaryRegulatorTypeCode", i.regulator),
      fullName(i.name),
      institutionAddress(i),
      el("PartyIdentification", [
        val("PartyIdentificationNumberText", i.ein),
        val("PartyIdentificationTypeCode", "2"),
      ]),
      el("OrganizationClassificationTypeSubtype", [val("OrganizationTypeID", "2")]),
    ]),
    subjectParty(x),
    el("SuspiciousActivity", [
      total === 0 ? yes("NoAmountInvolvedIndicator") : null,
      val("SuspiciousActivityFromDateText", yyyymmdd(newYorkDay(from))),
      val("SuspiciousActivityToDateText", yyyymmdd(newYorkDay(to))),
      total > 0 ? val("TotalSuspiciousAmountText", String(total)) : null,
      ...report.filing.categories.map(({ key }) =>
        el("SuspiciousActivityClassification", [
          key === "other" ? opt("OtherSuspiciousActivityTypeText", report.filing.otherCategory) : null,
          val("SuspiciousActivitySubtypeID", String(SAR_CATEGORIES[key].subtype)),
          val("SuspiciousActivityTypeID", String(SAR_CATEGORIES[key].type)),
        ]),
      ),
    ]),
    ...narrativeParts(report.narrative).map((part, n) =>
      el("ActivityNarrativeInformation", [
        val("ActivityNarrativeSequenceNumber", String(n + 1)),
        val("ActivityNarrativeText", part),
      ]),
    ),
  ]);
  const subjects = activity.children!.filter(
    (c) => c.name === "Party" && c.children?.[0]?.text === "33",
  ).length;
  return {
    name: "EFilingBatchXML",
    attrs: {
      "xmlns:fc2": "www.fincen.gov/base",
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation": "www.fincen.gov/base https://www.fincen.gov/base/EFL_FinCENSARXBatchSchema.xsd",
      ActivityCount: 1,
      TotalAmount: total,
      PartyCount: subjects,
      ActivityAttachmentCount: 0,
      AttachmentCount: 0,
    },
    children: [val("FormTypeCode", "SARX"), activity],
  };
}

const find = (node: XmlNode, name: string) => (node.children ?? []).filter((c) => c.name === name);
const textOf = (node: XmlNode, name: string) => find(node, name)[0]?.text;

/** The batch's rules from the user guide that the code checks before a file is written (decision 055). */
export function checkSarBatch(batch: XmlNode): string[] {
  const problems: string[] = [];
  const walk = (node: XmlNode) => {
    if (node.text !== undefined) {
      const max = MAX_LENGTH[node.name];
      if (node.text.length === 0) problems.push(`${node.name} is empty`);
      if (max !== undefined && node.text.length > max) problems.push(`${node.name} is longer than ${max}`);
      if (
        node.name !== "ActivityNarrativeText" &&
        (/^\s|\s$/.test(node.text) || /[\r\n\t]/.test(node.text))
      ) {
        problems.push(`${node.name} has leading, trailing or control whitespace`);
      }
      if (
        DATE_ELEMENTS.has(node.name) &&
        !/^(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(node.text)
      ) {
        problems.push(`${node.name} is not a YYYYMMDD date`);
      }
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(batch);
  const activity = find(batch, "Activity")[0];
  if (textOf(batch, "FormTypeCode") !== "SARX") problems.push("FormTypeCode must be SARX");
  if (!activity) return [...problems, "The batch has no Activity"];
  if (!textOf(activity, "FilingDateText")) problems.push("FilingDateText is required");
  const association = find(activity, "ActivityAssociation")[0];
  const indicators = (association?.children ?? []).map((c) => c.name);
  if (indicators.length !== 1) problems.push("ActivityAssociation needs exactly one filing type");
  const needsPrior = indicators.some((n) => n !== "InitialReportIndicator");
  const prior = textOf(activity, "EFilingPriorDocumentNumber");
  if (needsPrior !== (prior !== undefined)) {
    problems.push("EFilingPriorDocumentNumber goes with a continuing or corrected report only");
  }
  if (prior !== undefined && !/^\d{14}$/.test(prior))
    problems.push("EFilingPriorDocumentNumber is 14 digits");
  const parties = find(activity, "Party");
  const ofType = (code: string) => parties.filter((p) => textOf(p, "ActivityPartyTypeCode") === code);
  const required: [string, string][] = [
    ["35", "transmitter"],
    ["37", "transmitter contact"],
    ["30", "filing institution"],
    ["8", "contact office"],
    ["34", "financial institution where the activity occurred"],
    ["33", "subject"],
  ];
  for (const [code, what] of required) {
    if (ofType(code).length === 0) problems.push(`Party ${code} (${what}) is required`);
  }
  if (parties.length < 6) problems.push("An Activity has at least 6 parties");
  const transmitter = ofType("35")[0];
  if (transmitter) {
    const ids = find(transmitter, "PartyIdentification").map((p) => textOf(p, "PartyIdentificationTypeCode"));
    if (!ids.includes("28") || !ids.includes("4"))
      problems.push("The transmitter needs its TCC (28) and TIN (4)");
  }
  for (const code of ["30", "34"]) {
    for (const party of ofType(code)) {
      if (!textOf(party, "PrimaryRegulatorTypeCode"))
        problems.push(`Party ${code} needs PrimaryRegulatorTypeCode`);
      const address = find(party, "Address")[0];
      for (const part of [
        "RawCityText",
        "RawCountryCodeText",
        "RawStateCodeText",
        "RawStreetAddress1Text",
        "RawZIPCode",
      ]) {
        if (code === "30" && (!address || !textOf(address, part))) problems.push(`Party 30 needs ${part}`);
      }
      const tin = find(party, "PartyIdentification").some(
        (p) => textOf(p, "PartyIdentificationTypeCode") === "2",
      );
      if (!tin) problems.push(`Party ${code} needs its EIN`);
      if (find(party, "OrganizationClassificationTypeSubtype").length === 0) {
        problems.push(`Party ${code} needs its type of institution`);
      }
    }
  }
  for (const code of ["35", "8"]) {
    for (const party of ofType(code)) {
      if (!find(party, "PhoneNumber").some((p) => textOf(p, "PhoneNumberText"))) {
        problems.push(`Party ${code} needs a phone number`);
      }
    }
  }
  for (const subject of ofType("33")) {
    if (textOf(subject, "AllCriticalSubjectInformationUnavailableIndicator") === "Y") continue;
    if (find(subject, "PartyName").length === 0) problems.push("The subject needs a name");
    if (find(subject, "Address").length === 0)
      problems.push("The subject needs an address (or its unknown boxes)");
    const tin = find(subject, "PartyIdentification").some(
      (p) => textOf(p, "PartyIdentificationTypeCode") === "1" || textOf(p, "TINUnknownIndicator") === "Y",
    );
    if (!tin) problems.push("The subject needs a TIN (or its unknown box)");
  }
  const suspicious = find(activity, "SuspiciousActivity")[0];
  if (!suspicious) problems.push("SuspiciousActivity is required");
  else {
    if (!textOf(suspicious, "SuspiciousActivityFromDateText"))
      problems.push("SuspiciousActivityFromDateText is required");
    const classes = find(suspicious, "SuspiciousActivityClassification");
    if (classes.length < 1 || classes.length > 99) problems.push("1 to 99 SuspiciousActivityClassification");
    const subtypes = classes.map((c) => textOf(c, "SuspiciousActivitySubtypeID"));
    if (new Set(subtypes).size !== subtypes.length)
      problems.push("A SuspiciousActivitySubtypeID is repeated");
    const amount = textOf(suspicious, "TotalSuspiciousAmountText");
    if (amount !== undefined && !/^\d+$/.test(amount))
      problems.push("TotalSuspiciousAmountText is whole dollars");
  }
  const narrative = find(activity, "ActivityNarrativeInformation");
  if (narrative.length < 1 || narrative.length > NARRATIVE_PARTS) problems.push("1 to 5 narrative parts");
  return problems;
}

const escapeXml = (v: string) =>
  v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Writes the tree with the fc2 prefix on every element and one SeqNum per element that carries one. */
export function writeSarBatch(batch: XmlNode): string {
  let seq = 0;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const write = (node: XmlNode, depth: number) => {
    const pad = "  ".repeat(depth);
    const attrs = { ...(node.seq ? { SeqNum: ++seq } : {}), ...node.attrs };
    const attrText = Object.entries(attrs)
      .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
      .join("");
    if (node.text !== undefined) {
      out.push(`${pad}<fc2:${node.name}${attrText}>${escapeXml(node.text)}</fc2:${node.name}>`);
      return;
    }
    out.push(`${pad}<fc2:${node.name}${attrText}>`);
    for (const child of node.children ?? []) write(child, depth + 1);
    out.push(`${pad}</fc2:${node.name}>`);
  };
  write(batch, 0);
  return `${out.join("\n")}\n`;
}
