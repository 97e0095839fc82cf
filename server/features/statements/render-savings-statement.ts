import { formatMoney } from "@/contract/money";
import { transferReference } from "@/contract/transfers";
import type { DbOrTx } from "@/server/db/client";
import {
  createSavingsStatementDigest,
  iterateSavingsStatementLines,
  type SavingsStatementOwner,
  type SavingsStatementSummary,
} from "@/server/features/statements/savings-statement-data";
import type { StatementPeriod } from "@/server/features/statements/statement-month";
import {
  createStatementTable,
  drawFigures,
  drawVerification,
  LEFT,
  ROW,
  shortDate,
  signed,
  statementTitle,
  WIDTH,
} from "@/server/features/statements/statement-table";
import { createFramedDocument, HAIRLINE, INK, MUTED } from "@/server/lib/pdf-frame";

/** Date, description, reference, amount, balance: the money columns right-aligned (a savings move has no fee). */
const COLUMNS = [
  { title: "Date", width: 56, align: "left" },
  { title: "Description", width: 250, align: "left" },
  { title: "Reference", width: 70, align: "left" },
  { title: "Amount", width: 70, align: "right" },
  { title: "Balance", width: 70, align: "right" },
] as const;
const table = createStatementTable(COLUMNS);

/** "2026-01-05" → 01/05/26, as shortDate prints an instant. */
function dayDate(day: string): string {
  const [year, month, date] = day.split("-");
  return `${month}/${date}/${year!.slice(2)}`;
}

/** The period's first and last New York day: the month, from the day the account opened, to the day it closed. */
function periodDays(owner: SavingsStatementOwner, period: StatementPeriod) {
  const first = `${period.month}-01`;
  const last = new Date(period.end.getTime() - 1);
  const lastDay = `${period.month}-${shortDate(last).slice(3, 5)}`;
  return {
    from: owner.openedOn > first ? owner.openedOn : first,
    to: owner.closedOn && owner.closedOn < lastDay ? owner.closedOn : lastDay,
  };
}

/** The average daily balance to the cent (half up): Σ daily balances / days. */
export function averageDailyBalance(summary: Pick<SavingsStatementSummary, "balanceDays" | "days">): number {
  return summary.days > 0 ? Math.round(summary.balanceDays / summary.days) : 0;
}

function drawSummary(doc: PDFKit.PDFDocument, summary: SavingsStatementSummary) {
  const top = drawFigures(doc, [
    ["Opening balance", formatMoney(summary.opening)],
    ["From Checking", signed(summary.deposits)],
    ["To Checking", signed(summary.withdrawals)],
    ["Interest earned", signed(summary.interest)],
    ["Closing balance", formatMoney(summary.closing)],
  ]);
  doc.x = LEFT;
  doc.y = top + 68;
}

/**
 * Regulation DD §1030.6(a): the annual percentage yield earned (using that term), the interest earned and the
 * period's length, as label-value rows so each reads as one line.
 */
function drawInterestDisclosure(
  doc: PDFKit.PDFDocument,
  owner: SavingsStatementOwner,
  period: StatementPeriod,
  summary: SavingsStatementSummary,
) {
  const { from, to } = periodDays(owner, period);
  const rows: [string, string][] = [
    ["Interest earned this period", formatMoney(summary.interest)],
    ["Annual Percentage Yield Earned", `${summary.apyEarned}%`],
    ["Days in period", String(summary.days)],
    ["Statement period", `${dayDate(from)} to ${dayDate(to)}`],
    ["Average daily balance", formatMoney(averageDailyBalance(summary))],
  ];
  doc.font("Helvetica-Bold").fontSize(11).fillColor(INK).text("Interest", LEFT, doc.y, { lineBreak: false });
  doc.y += 18;
  const top = doc.y;
  const half = WIDTH / 2;
  doc
    .roundedRect(LEFT, top, WIDTH, rows.length * ROW + 8, 4)
    .lineWidth(0.5)
    .strokeColor(HAIRLINE)
    .stroke();
  rows.forEach(([label, value], index) => {
    const y = top + 4 + index * ROW + 4;
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, LEFT + 10, y, {
        width: half - 10,
        lineBreak: false,
      });
    doc
      .font("Helvetica-Bold")
      .fontSize(9)
      .fillColor(INK)
      .text(value, LEFT + half, y, { width: half - 10, align: "right", lineBreak: false });
  });
  doc.y = top + rows.length * ROW + 14;
  doc
    .font("Helvetica")
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(
      "Interest accrues on each day's closing balance (daily balance method) and is paid on the month's last day. " +
        "The Annual Percentage Yield Earned relates the interest earned to the average daily balance over the days " +
        "in the period, on a 365-day year. The rate is variable and may change.",
      LEFT,
      doc.y,
      { width: WIDTH },
    );
  doc.x = LEFT;
  doc.y += 14;
}

/**
 * Writes one savings statement into a framed PDF as it reads the ledger: summary, the interest disclosures, every
 * movement with its running balance, the closing balance and the ledger digest. The caller streams `doc`.
 */
export async function writeSavingsStatement(
  doc: PDFKit.PDFDocument,
  db: DbOrTx,
  owner: SavingsStatementOwner,
  period: StatementPeriod,
  summary: SavingsStatementSummary,
) {
  drawSummary(doc, summary);
  drawInterestDisclosure(doc, owner, period, summary);
  const heading = "Savings activity";
  table.ensureRoom(doc, 4, heading);
  table.drawHeader(doc, heading);
  const { from } = periodDays(owner, period);
  table.drawRow(doc, [dayDate(from), "Opening balance", "", "", formatMoney(summary.opening)]);
  const digest = createSavingsStatementDigest(owner.accountId, period, summary.opening);
  let balance = summary.opening;
  for await (const lines of iterateSavingsStatementLines(db, owner, period)) {
    digest.add(lines);
    for (const line of lines) {
      balance += line.amount;
      table.ensureRoom(doc, 1, heading);
      table.drawRow(doc, [
        shortDate(line.at),
        line.description,
        transferReference(line.reference),
        signed(line.amount),
        formatMoney(balance),
      ]);
    }
  }
  table.ensureRoom(doc, 2, heading);
  table.drawRow(doc, ["", "Interest earned", "", signed(summary.interest), ""], { bold: true });
  table.drawRow(doc, ["", "Closing balance", "", "", formatMoney(balance)], { bold: true });
  drawVerification(doc, digest.finish());
  doc.end();
}

/** The framed document for one savings statement, before any row is written. */
export function createSavingsStatementDocument(
  owner: SavingsStatementOwner,
  period: StatementPeriod,
  now = new Date(),
) {
  return createFramedDocument({
    title: "Savings statement",
    subtitle: statementTitle(period),
    customerName: owner.name,
    address: owner.address,
    accountLine: `Savings account opened ${dayDate(owner.openedOn)}${
      owner.closedOn ? ` \u00b7 closed ${dayDate(owner.closedOn)}` : ""
    }`,
    generatedAt: now,
  });
}
