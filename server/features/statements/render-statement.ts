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
import {
  createStatementTable,
  drawFigures,
  drawVerification,
  LEFT,
  shortDate,
  signed,
  statementTitle,
  WIDTH,
} from "@/server/features/statements/statement-table";
import { createFramedDocument, MUTED } from "@/server/lib/pdf-frame";

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
const table = createStatementTable(COLUMNS);
const drawRow = table.drawRow;
const drawTableHeader = table.drawHeader;
const ensureRoom = table.ensureRoom;

function drawSummary(doc: PDFKit.PDFDocument, summary: StatementSummary, period: StatementPeriod) {
  const cells: [string, string][] = [
    ["Opening balance", formatMoney(summary.opening)],
    ["Money in", signed(summary.moneyIn)],
    ["Money out", signed(summary.moneyOut)],
    ["Fees (in money out)", formatMoney(summary.fees)],
    ["Closing balance", formatMoney(summary.closing)],
  ];
  const top = drawFigures(doc, cells);
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
