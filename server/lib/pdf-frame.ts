import PDFDocument from "pdfkit";
import { formatBankTime } from "@/contract/bank-time";
import { BRAND } from "@/contract/brand";

/** US Letter in points; every Pillar PDF shares these margins so statements and receipts read as one family. */
export const PAGE = { width: 612, height: 792, margin: 48, headerBottom: 132, footerTop: 748 } as const;
export const INK = "#0f172a";
export const MUTED = "#64748b";
export const BRAND_BLUE = "#1d4ed8";
export const HAIRLINE = "#cbd5e1";

/** An instant as a customer in New York reads it, e.g. "Nov 24, 2026, 12:41 AM ET" (server/lib/bank-time.ts). */
export function formatNewYorkTime(instant: Date): string {
  return formatBankTime(instant);
}

export interface FrameInput {
  title: string;
  subtitle: string;
  customerName: string;
  address: string | null;
  /** Printed opposite the customer's name, e.g. "Checking account ••••1234 · Routing number 021000021". */
  accountLine?: string;
  generatedAt: Date;
  /** The footer's words when the document is not the customer's own (a compliance report). */
  footer?: string;
}

/**
 * A PDF with the shared Pillar frame drawn on every page as it is added: brand, document title, customer,
 * and a footer with the page number. Pages are not buffered, so a long statement streams out page by page
 * (which is why the footer says "Page N" and not "Page N of M").
 */
export function createFramedDocument(frame: FrameInput): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: "LETTER",
    margins: {
      top: PAGE.headerBottom,
      bottom: PAGE.height - PAGE.footerTop + 8,
      left: PAGE.margin,
      right: PAGE.margin,
    },
    info: { Title: `${BRAND.name} — ${frame.title}`, Author: BRAND.name, Subject: frame.subtitle },
    autoFirstPage: false,
  });
  let pageNumber = 0;
  doc.on("pageAdded", () => {
    pageNumber += 1;
    drawFrame(doc, frame, pageNumber);
  });
  doc.addPage();
  return doc;
}

function drawFrame(doc: PDFKit.PDFDocument, frame: FrameInput, pageNumber: number) {
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const width = right - left;
  // Drawing outside the margins would make pdfkit open another page; lift them while the frame is drawn.
  const margins = { ...doc.page.margins };
  doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };

  doc.rect(left, 40, 6, 22).fill(BRAND_BLUE);
  doc
    .fillColor(INK)
    .font("Helvetica-Bold")
    .fontSize(18)
    .text(BRAND.name, left + 14, 42, { lineBreak: false });
  doc
    .font("Helvetica-Bold")
    .fontSize(13)
    .text(frame.title, left, 40, { width, align: "right", lineBreak: false });
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor(MUTED)
    .text(frame.subtitle, left, 58, { width, align: "right", lineBreak: false });

  doc
    .fillColor(INK)
    .font("Helvetica-Bold")
    .fontSize(10)
    .text(frame.customerName, left, 84, { lineBreak: false });
  if (frame.accountLine) {
    doc
      .font("Helvetica")
      .fontSize(9)
      .text(frame.accountLine, left, 85, { width, align: "right", lineBreak: false });
  }
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor(MUTED)
    .text(frame.address ?? "", left, 98, { width: width / 2, lineBreak: false, ellipsis: true });
  doc.text(`Generated ${formatNewYorkTime(frame.generatedAt)}`, left, 98, {
    width,
    align: "right",
    lineBreak: false,
  });
  doc.moveTo(left, 118).lineTo(right, 118).lineWidth(0.5).strokeColor(HAIRLINE).stroke();

  doc
    .moveTo(left, PAGE.footerTop)
    .lineTo(right, PAGE.footerTop)
    .lineWidth(0.5)
    .strokeColor(HAIRLINE)
    .stroke();
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      frame.footer ??
        `${BRAND.name} · ${BRAND.supportEmail} · Amounts in US dollars. Keep this document for your records.`,
      left,
      PAGE.footerTop + 8,
      { width: width - 60, lineBreak: false },
    )
    .text(`Page ${pageNumber}`, left, PAGE.footerTop + 8, { width, align: "right", lineBreak: false });

  doc.page.margins = margins;
  doc.fillColor(INK).font("Helvetica").fontSize(9);
  doc.x = left;
  doc.y = PAGE.headerBottom;
}

/** Cuts text to fit a column, with an ellipsis, so no cell ever wraps or overflows into its neighbour. */
export function fitText(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
