import { formatMoney } from "@/contract/money";
import { transferReference } from "@/contract/transfers";
import type { Db } from "@/server/db/client";
import {
  createStatementDigest,
  findPendingLines,
  iterateStatementLines,
  type PendingLine,
  type StatementOwner,
  type StatementSummary,
} from "@/server/features/statements/statement-data";
import type { StatementPeriod } from "@/server/features/statements/statement-month";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { createFramedDocument, fitText, HAIRLINE, INK, MUTED, PAGE } from "@/server/lib/pdf-frame";

const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const ROW = 16;
/** The hash line under an on-chain movement. */
const HASH_ROW = 11;
/** Date, description, reference, fee, amount, balance: the three money columns right-aligned. */
const COLUMNS = [
  { title: "Date", width: 52, align: "left" },
  { title: "Description", width: 204, align: "left" },
  { title: "Reference", width: 66, align: "left" },
  { title: "Fee", width: 56, align: "right" },
  { title: "Amount", width: 68, align: "right" },
  { title: "Balance", width: 70, align: "right" },
] as const;

const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

export function signed(cents: number): string {
  return cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents);
}

function statementTitle(period: StatementPeriod): string {
  return MONTH_NAME.format(new Date(`${period.month}-15T12:00:00Z`));
}

function shortDate(at: Date): string {
  const [year, month, day] = limitDayOf(at).split("-");
  return `${month}/${day}/${year!.slice(2)}`;
}

function drawRow(doc: PDFKit.PDFDocument, cells: string[], options: { bold?: boolean; color?: string } = {}) {
  const y = doc.y;
  let x = LEFT;
  doc
    .font(options.bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(8.5)
    .fillColor(options.color ?? INK);
  COLUMNS.forEach((column, index) => {
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

function drawTableHeader(doc: PDFKit.PDFDocument, heading: string) {
  doc.font("Helvetica-Bold").fontSize(11).fillColor(INK).text(heading, LEFT, doc.y, { lineBreak: false });
  doc.y += 18;
  doc.rect(LEFT, doc.y, WIDTH, ROW).fill("#f1f5f9");
  drawRow(
    doc,
    COLUMNS.map((column) => column.title),
    { bold: true, color: MUTED },
  );
}

/** Opens a new page (frame drawn by the page hook) when fewer than `rows` rows fit, repeating the header. */
function ensureRoom(doc: PDFKit.PDFDocument, rows: number, heading: string) {
  if (doc.y + rows * ROW <= PAGE.footerTop - 12) return;
  doc.addPage();
  drawTableHeader(doc, `${heading} (continued)`);
}

function drawSummary(doc: PDFKit.PDFDocument, summary: StatementSummary, period: StatementPeriod) {
  const cells = [
    ["Opening balance", formatMoney(summary.opening)],
    ["Money in", signed(summary.moneyIn)],
    ["Money out", signed(summary.moneyOut)],
    ["Fees (in money out)", formatMoney(summary.fees)],
    ["Closing balance", formatMoney(summary.closing)],
  ];
  const top = doc.y;
  const cell = WIDTH / cells.length;
  doc.roundedRect(LEFT, top, WIDTH, 52, 4).lineWidth(0.5).strokeColor(HAIRLINE).stroke();
  cells.forEach(([label, value], index) => {
    const x = LEFT + index * cell;
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(label!, x + 10, top + 12, { width: cell - 20, lineBreak: false });
    doc
      .font("Helvetica-Bold")
      .fontSize(12)
      .fillColor(INK)
      .text(value!, x + 10, top + 27, { width: cell - 20, lineBreak: false });
  });
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `Period ${shortDate(period.start)} to ${shortDate(new Date(period.end.getTime() - 1))}, America/New_York. ` +
        `${summary.count} completed movement${summary.count === 1 ? "" : "s"}. Pending items are not included in balances.`,
      LEFT,
      top + 62,
      { width: WIDTH, lineBreak: false },
    );
  doc.x = LEFT;
  doc.y = top + 88;
}

/** A movement's row: date, description, reference, fee (blank when none), signed amount, then `last`. */
function movementCells(line: PendingLine, last: string): string[] {
  return [
    shortDate(line.at),
    line.description,
    transferReference(line.reference),
    line.fee ? formatMoney(line.fee) : "",
    signed(line.amount),
    last,
  ];
}

/** Under an on-chain movement: its transaction hash in full, small and muted, across the middle columns. */
function drawChainHash(doc: PDFKit.PDFDocument, hash: string) {
  const y = doc.y;
  const x = LEFT + COLUMNS[0].width;
  doc
    .font("Helvetica")
    .fontSize(7)
    .fillColor(MUTED)
    .text(`Transaction hash ${hash}`, x, y + 2, {
      width: COLUMNS[1].width + COLUMNS[2].width + COLUMNS[3].width + COLUMNS[4].width,
      lineBreak: false,
    });
  doc.x = LEFT;
  doc.y = y + HASH_ROW;
}

/** A movement's row, then its transaction hash when it moved on chain (room for both on one page). */
function drawMovement(doc: PDFKit.PDFDocument, line: PendingLine, last: string, heading: string) {
  ensureRoom(doc, line.chainTxHash ? 2 : 1, heading);
  drawRow(doc, movementCells(line, last));
  if (line.chainTxHash) drawChainHash(doc, line.chainTxHash);
}

function drawPending(doc: PDFKit.PDFDocument, pending: PendingLine[]) {
  const heading = "Pending (not yet in your balance)";
  doc.y += 16;
  ensureRoom(doc, 3, heading);
  drawTableHeader(doc, heading);
  if (pending.length === 0)
    drawRow(doc, ["", "No pending movements this month", "", "", "", ""], { color: MUTED });
  for (const line of pending) drawMovement(doc, line, "Pending", heading);
}

function drawVerification(doc: PDFKit.PDFDocument, digest: string) {
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

/**
 * Writes one monthly statement into a framed PDF as it reads the ledger: summary, every completed movement
 * with its running balance, totals, pending movements, and the ledger digest. The caller streams `doc`.
 */
export async function writeStatement(
  doc: PDFKit.PDFDocument,
  db: Db,
  owner: StatementOwner,
  period: StatementPeriod,
  summary: StatementSummary,
) {
  drawSummary(doc, summary, period);
  const heading = "Account activity";
  drawTableHeader(doc, heading);
  drawRow(doc, [shortDate(period.start), "Opening balance", "", "", "", formatMoney(summary.opening)]);
  const digest = createStatementDigest(owner, period, summary.opening);
  let balance = summary.opening;
  for await (const lines of iterateStatementLines(db, owner, period)) {
    digest.add(lines);
    for (const line of lines) {
      balance += line.amount;
      drawMovement(doc, line, formatMoney(balance), heading);
    }
  }
  ensureRoom(doc, 3, heading);
  drawRow(doc, ["", "Total money in", "", "", signed(summary.moneyIn), ""], { bold: true });
  drawRow(doc, ["", "Total money out", "", formatMoney(summary.fees), signed(summary.moneyOut), ""], {
    bold: true,
  });
  drawRow(doc, ["", "Closing balance", "", "", "", formatMoney(balance)], { bold: true });
  drawPending(doc, await findPendingLines(db, owner, period));
  drawVerification(doc, digest.finish());
  doc.end();
}

/** The framed document for one month, before any row is written. */
export function createStatementDocument(owner: StatementOwner, period: StatementPeriod, now = new Date()) {
  return createFramedDocument({
    title: "Monthly statement",
    subtitle: statementTitle(period),
    customerName: owner.name,
    address: owner.address,
    accountLine: owner.account ? statementAccountLine(owner.account) : undefined,
    generatedAt: now,
  });
}

/** Only the last four digits of the account number are ever printed: a statement is often shared or mailed. */
export function maskAccountNumber(number: string): string {
  return `\u2022\u2022\u2022\u2022${number.slice(-4)}`;
}

export function statementAccountLine(account: { number: string; routingNumber: string }): string {
  return `Checking account ${maskAccountNumber(account.number)} \u00b7 Routing number ${account.routingNumber}`;
}
