import { formatMoney } from "@/contract/money";
import type { StatementPeriod } from "@/server/features/statements/statement-month";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { fitText, HAIRLINE, INK, MUTED, PAGE } from "@/server/lib/pdf-frame";

/** What the checking and the savings statement share: the page's columns, rows, headers and the digest box. */

export const LEFT = PAGE.margin;
export const WIDTH = PAGE.width - 2 * PAGE.margin;
export const ROW = 16;

export interface StatementColumn {
  title: string;
  width: number;
  align: "left" | "right";
}

const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

export function signed(cents: number): string {
  return cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents);
}

/** "2026-11" → "November 2026". */
export function statementTitle(period: Pick<StatementPeriod, "month">): string {
  return MONTH_NAME.format(new Date(`${period.month}-15T12:00:00Z`));
}

/** An instant's New York day as 11/30/26. */
export function shortDate(at: Date): string {
  const [year, month, day] = limitDayOf(at).split("-");
  return `${month}/${day}/${year!.slice(2)}`;
}

/** A table of fixed columns: one row a call, its header repeated on each new page. */
export function createStatementTable(columns: readonly StatementColumn[]) {
  function drawRow(
    doc: PDFKit.PDFDocument,
    cells: string[],
    options: { bold?: boolean; color?: string } = {},
  ) {
    const y = doc.y;
    let x = LEFT;
    doc
      .font(options.bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(8.5)
      .fillColor(options.color ?? INK);
    columns.forEach((column, index) => {
      const text = fitText(doc, cells[index] ?? "", column.width - 6);
      doc.text(text, x, y + 4, { width: column.width, align: column.align, lineBreak: false });
      x += column.width;
    });
    doc
      .moveTo(LEFT, y + ROW)
      .lineTo(LEFT + WIDTH, y + ROW)
      .lineWidth(0.25)
      .strokeColor(HAIRLINE)
      .stroke();
    doc.x = LEFT;
    doc.y = y + ROW;
  }

  function drawHeader(doc: PDFKit.PDFDocument, heading: string) {
    doc.font("Helvetica-Bold").fontSize(11).fillColor(INK).text(heading, LEFT, doc.y, { lineBreak: false });
    doc.y += 18;
    doc.rect(LEFT, doc.y, WIDTH, ROW).fill("#f1f5f9");
    drawRow(
      doc,
      columns.map((column) => column.title),
      { bold: true, color: MUTED },
    );
  }

  /** Opens a new page (frame drawn by the page hook) when fewer than `rows` rows fit, repeating the header. */
  function ensureRoom(doc: PDFKit.PDFDocument, rows: number, heading: string) {
    if (doc.y + rows * ROW <= PAGE.footerTop - 12) return;
    doc.addPage();
    drawHeader(doc, `${heading} (continued)`);
  }

  return { drawRow, drawHeader, ensureRoom };
}

/** A row of labelled figures in a rounded box (a statement's summary). */
export function drawFigures(doc: PDFKit.PDFDocument, cells: [string, string][]) {
  const top = doc.y;
  const cell = WIDTH / cells.length;
  doc.roundedRect(LEFT, top, WIDTH, 52, 4).lineWidth(0.5).strokeColor(HAIRLINE).stroke();
  cells.forEach(([label, value], index) => {
    const x = LEFT + index * cell;
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(label, x + 10, top + 12, { width: cell - 20, lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(12)
      .fillColor(INK)
      .text(value, x + 10, top + 27, { width: cell - 20, lineBreak: false });
  });
  return top;
}

/** The ledger digest and what it is for, at the statement's end. */
export function drawVerification(doc: PDFKit.PDFDocument, digest: string) {
  doc.y += 20;
  if (doc.y + 56 > PAGE.footerTop - 12) doc.addPage();
  const top = doc.y;
  doc.roundedRect(LEFT, top, WIDTH, 44, 4).lineWidth(0.5).strokeColor(HAIRLINE).stroke();
  doc
    .font("Helvetica-Bold")
    .fontSize(9)
    .fillColor(INK)
    .text(`Ledger digest ${digest}`, LEFT + 10, top + 10, {
      lineBreak: false,
    });
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      "Support can recompute this digest from our ledger to confirm a copy of this statement is genuine and complete.",
      LEFT + 10,
      top + 25,
      { width: WIDTH - 20, lineBreak: false },
    );
}
