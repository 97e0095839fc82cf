import { and, eq } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import { isUnsentTransfer, transferFigures, usdcNetwork } from "@/contract/transfer-figures";
import { transferReference } from "@/contract/transfers";
import type { Db } from "@/server/db/client";
import { kycApplications, users } from "@/server/db/schema";
import { findOwnTransfer } from "@/server/features/transfers/get-transfer-receipt";
import { createFramedDocument, formatNewYorkTime, HAIRLINE, INK, MUTED, PAGE } from "@/server/lib/pdf-frame";

const STATUS_TEXT: Record<string, string> = {
  pending: "Pending",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  blocked: "Not sent",
};

/** The receipt's transfer (the same lookup as GET /api/transfers/{id}), its owner's name and verified address. */
export async function findReceiptTransfer(db: Db, userId: string, transferId: string) {
  const transfer = await findOwnTransfer(db, userId, transferId);
  const [owner] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  const [kyc] = await db
    .select({ address: kycApplications.address })
    .from(kycApplications)
    .where(and(eq(kycApplications.userId, userId), eq(kycApplications.status, "approved")))
    .limit(1);
  return { transfer, firstName: owner!.firstName, lastName: owner!.lastName, address: kyc?.address ?? null };
}

type ReceiptTransfer = Awaited<ReturnType<typeof findReceiptTransfer>>;

/** A one-page receipt for an outgoing USDC transfer, in the same frame as the statements. */
export function renderTransferReceipt(
  { transfer, firstName, lastName, address }: ReceiptTransfer,
  now = new Date(),
) {
  const doc = createFramedDocument({
    title: "Transfer receipt",
    subtitle: `Reference ${transferReference(transfer.id)}`,
    customerName: `${firstName} ${lastName}`,
    address,
    generatedAt: now,
  });
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const isSettled = transfer.status !== "pending" && transfer.status !== "processing";

  const isUnsent = isUnsentTransfer(transfer.status);
  const figures = transferFigures({
    amountCents: transfer.amount,
    feeCents: transfer.fee,
    status: transfer.status,
  });
  const headline = isUnsent
    ? "Nothing sent"
    : transfer.status === "completed"
      ? "Amount sent"
      : "Amount being sent";
  doc.font("Helvetica").fontSize(9).fillColor(MUTED).text(headline, left, doc.y);
  doc
    .font("Helvetica-Bold")
    .fontSize(24)
    .fillColor(INK)
    .text(formatMoney(isUnsent ? 0 : transfer.amount), left, doc.y + 2);
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(MUTED)
    .text(
      `USDC transfer of ${formatMoney(transfer.amount)} to ${transfer.recipientName} · ${STATUS_TEXT[transfer.status]}`,
      left,
      doc.y + 2,
    );
  doc.y += 18;

  const rows: [string, string][] = [
    ["Reference", transferReference(transfer.id)],
    ["Status", STATUS_TEXT[transfer.status] ?? transfer.status],
    ["Requested", formatNewYorkTime(transfer.createdAt)],
    [
      isSettled ? `${STATUS_TEXT[transfer.status]}` : "Last updated",
      formatNewYorkTime(transfer.settledAt ?? transfer.updatedAt),
    ],
    // The standard PDF fonts have no U+2212 minus: the fee prints with a hyphen-minus, as the statement's do.
    ...figures.lines.map(({ label, value }): [string, string] => [label, value.replace("−", "-")]),
    ["Recipient", transfer.recipientName],
    ["USDC address", transfer.cryptoAddress],
    ["Network", usdcNetwork(transfer.cryptoAddress)],
    ["Purpose", transfer.purpose],
    ["Transfer id", transfer.id],
  ];
  const strongLabel = figures.lines.find((line) => line.isStrong)?.label;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, left, y + 6, { width: 150, lineBreak: false });
    doc
      .font(label === strongLabel ? "Helvetica-Bold" : "Helvetica")
      .fillColor(INK)
      .text(value, left + 150, y + 6, {
        width: width - 150,
        align: "right",
        lineBreak: false,
        ellipsis: true,
      });
    doc
      .moveTo(left, y + 22)
      .lineTo(left + width, y + 22)
      .lineWidth(0.25)
      .strokeColor(HAIRLINE)
      .stroke();
    doc.y = y + 22;
  }
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `${figures.note ?? "The fee is 2% of the amount and is included in it."} Quote the reference when you contact support.`,
      left,
      doc.y + 16,
      { width },
    );
  doc.end();
  return doc;
}
