import { BRAND } from "@/contract/brand";
import type { SarReport } from "@/contract/compliance";
import {
  createFramedDocument,
  fitText,
  formatNewYorkTime,
  HAIRLINE,
  INK,
  MUTED,
  PAGE,
} from "@/server/lib/pdf-frame";

const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.footerTop - 16;

function ensureRoom(doc: PDFKit.PDFDocument, height: number) {
  if (doc.y + height > BOTTOM) doc.addPage();
}

function heading(doc: PDFKit.PDFDocument, text: string) {
  ensureRoom(doc, 40);
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(11).fillColor(INK).text(text, LEFT, doc.y, { width: WIDTH });
  const y = doc.y + 2;
  doc
    .moveTo(LEFT, y)
    .lineTo(LEFT + WIDTH, y)
    .lineWidth(0.5)
    .strokeColor(HAIRLINE)
    .stroke();
  doc.y = y + 6;
}

function field(doc: PDFKit.PDFDocument, label: string, value: string) {
  ensureRoom(doc, 16);
  const y = doc.y;
  doc.font("Helvetica").fontSize(9).fillColor(MUTED).text(label, LEFT, y, { width: 130, lineBreak: false });
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor(INK)
    .text(value || "—", LEFT + 140, y, { width: WIDTH - 140 });
  doc.y = Math.max(doc.y, y + 13);
}

function paragraph(doc: PDFKit.PDFDocument, text: string, color = INK) {
  ensureRoom(doc, 16);
  doc.font("Helvetica").fontSize(9).fillColor(color).text(text, LEFT, doc.y, { width: WIDTH });
  doc.moveDown(0.3);
}

/** A SAR and the fact one exists may not be disclosed to its subject (31 U.S.C. 5318(g)(2)). */
export const SAR_FOOTER = `${BRAND.name} compliance · Confidential: never disclose to the subject · Amounts in US dollars`;

const day = (iso: string | null) => (iso ? formatNewYorkTime(new Date(iso)) : "—");

/** The SAR-style draft as a PDF in the statements' frame; streamed as it is drawn. */
export function renderSarDraft(draft: SarReport): PDFKit.PDFDocument {
  const name = draft.subject ? `${draft.subject.firstName} ${draft.subject.lastName}` : "Deleted customer";
  const doc = createFramedDocument({
    title: draft.filed ? "Suspicious activity report" : "Suspicious activity report — draft",
    subtitle: `Case ${draft.caseId} · confidential: do not disclose to the subject`,
    customerName: name,
    address: draft.subject?.address ?? null,
    accountLine: draft.subject?.accountNumber ? `Account ${draft.subject.accountNumber}` : undefined,
    generatedAt: new Date(draft.generatedAt),
    // Staff's document, not the customer's: the statements' "keep this for your records" would invite sharing it.
    footer: SAR_FOOTER,
  });

  heading(doc, "Filing");
  field(doc, "Case status", draft.status);
  field(doc, "First detected", day(draft.firstDetectedAt));
  field(doc, "Report due", day(draft.reportDueAt));
  field(doc, "Type of filing", draft.filing.filingTypeLabel);
  if (draft.filing.priorReportId) field(doc, "Prior report (BSA ID)", draft.filing.priorReportId);
  if (draft.filing.reviewOn) field(doc, "90-day review", draft.filing.reviewOn);
  field(doc, "Suspect identified", draft.filing.subjectIdentified ? "Yes" : "No (60-day deadline)");
  field(doc, "Filing institution", `${draft.filingInstitution.name}, EIN ${draft.filingInstitution.ein}`);
  field(doc, "Institution address", draft.filingInstitution.address);
  field(
    doc,
    "Contact office",
    `${draft.filingInstitution.contactOffice}, ${draft.filingInstitution.contactPhone}`,
  );
  if (draft.decision) {
    field(doc, "Decision", draft.decision.note);
    field(doc, "Proposed by", draft.decision.maker ?? "—");
    field(doc, "Approved by", draft.decision.checker ?? "—");
    field(doc, "Decided", day(draft.decision.decidedAt));
  }

  heading(doc, "Subject");
  field(doc, "Name", name);
  field(doc, "E-mail", draft.subject?.email ?? "—");
  field(doc, "Date of birth", draft.subject?.dateOfBirth ?? "not recorded");
  field(doc, "Address", draft.subject?.address ?? "—");
  field(doc, "Account number", draft.subject?.accountNumber ?? "—");
  field(doc, "Customer id", draft.subject?.id ?? "—");
  // Masked: the full SSN and ID number go only into the XML filed with FinCEN (decision 055).
  field(doc, "SSN/TIN", draft.subjectIdentity?.ssnMasked ?? "unknown");
  field(doc, "Phone", draft.subjectIdentity?.phone ?? "—");
  field(doc, "Occupation", draft.subjectIdentity?.occupation ?? "—");
  const id = draft.subjectIdentity;
  field(
    doc,
    "ID document",
    id?.idTypeLabel
      ? [id.idTypeLabel, id.idNumberMasked, id.idIssuerState, id.idIssuerCountry].filter(Boolean).join(" · ")
      : "—",
  );

  heading(doc, "Suspicious activity categories");
  for (const c of draft.filing.categories) {
    paragraph(
      doc,
      c.key === "other" && draft.filing.otherCategory ? `${c.label}: ${draft.filing.otherCategory}` : c.label,
    );
  }
  if (draft.filing.categories.length === 0) paragraph(doc, "None chosen yet.", MUTED);

  heading(doc, "Suspicious activity");
  field(doc, "From", day(draft.activity.from));
  field(doc, "To", day(draft.activity.to));
  field(doc, "Total amount", `$${draft.activity.totalAmount}`);
  for (const t of draft.activity.transfers) {
    ensureRoom(doc, 14);
    const y = doc.y;
    doc.font("Helvetica").fontSize(8.5).fillColor(INK);
    doc.text(day(t.createdAt), LEFT, y, { width: 120, lineBreak: false });
    doc.text(`$${t.amount}`, LEFT + 120, y, { width: 70, align: "right", lineBreak: false });
    doc.text(t.status, LEFT + 200, y, { width: 60, lineBreak: false });
    doc.text(fitText(doc, `${t.recipientName} · ${t.cryptoAddress ?? ""}`, WIDTH - 270), LEFT + 270, y, {
      width: WIDTH - 270,
      lineBreak: false,
    });
    doc.y = y + 13;
  }
  if (draft.activity.transfers.length === 0) paragraph(doc, "No transfers in the period.", MUTED);
  if (draft.activity.moneyIn.length > 0) {
    field(doc, "Money in", `$${draft.activity.moneyInTotal}`);
    for (const t of draft.activity.moneyIn) {
      ensureRoom(doc, 14);
      const y = doc.y;
      doc.font("Helvetica").fontSize(8.5).fillColor(INK);
      doc.text(day(t.createdAt), LEFT, y, { width: 120, lineBreak: false });
      doc.text(`$${t.amount}`, LEFT + 120, y, { width: 70, align: "right", lineBreak: false });
      doc.text(t.status, LEFT + 200, y, { width: 60, lineBreak: false });
      doc.text(fitText(doc, t.description, WIDTH - 270), LEFT + 270, y, {
        width: WIDTH - 270,
        lineBreak: false,
      });
      doc.y = y + 13;
    }
  }

  heading(doc, "Evidence");
  for (const e of draft.evidence) {
    if (e.kind === "sanctions_hit") {
      paragraph(
        doc,
        `${day(e.detectedAt)} · Sanctions hit · ${e.screeningPoint} · "${e.subject}" matched "${e.matched}" (score ${e.score.toFixed(3)}) · ${e.list}`,
      );
    } else {
      paragraph(
        doc,
        `${day(e.detectedAt)} · Monitoring alert · ${e.ruleLabel} (score ${e.score.toFixed(2)}${e.blocking ? ", blocking" : ""}) on ${e.eventKind} ${e.eventId} · ${e.summary}`,
      );
    }
  }
  if (draft.evidence.length === 0) paragraph(doc, "No evidence recorded.", MUTED);

  heading(doc, "Related customers");
  for (const r of draft.relatedCustomers) paragraph(doc, `${r.email} (${r.id}): ${r.note}`);
  if (draft.relatedCustomers.length === 0) paragraph(doc, "None linked.", MUTED);

  heading(doc, "Narrative");
  paragraph(doc, draft.narrative.trim() || "No narrative written yet.", draft.narrative.trim() ? INK : MUTED);
  doc.end();
  return doc;
}
