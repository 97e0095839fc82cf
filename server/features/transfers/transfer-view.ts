import { centsToDecimal, formatMoney } from "@/contract/money";
import type { TransferRequest } from "@/contract/transfers";
import type { transferRequests } from "@/server/db/schema";

type TransferRow = typeof transferRequests.$inferSelect;

const DATE_FORMAT = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

export function toTransferRequest(row: TransferRow): TransferRequest {
  return {
    id: row.id,
    userId: row.userId,
    amount: Number(centsToDecimal(row.amount)),
    amountCents: row.amount,
    feeCents: row.fee,
    netAmountCents: row.netAmount,
    formattedAmount: formatMoney(row.amount),
    recipientName: row.recipientName,
    recipientAccount: row.recipientAccount,
    recipientRouting: row.recipientRouting,
    purpose: row.purpose,
    category: row.category,
    paymentMethod: row.paymentMethod,
    cryptoAddress: row.cryptoAddress,
    status: row.status,
    adminNotes: row.adminNotes,
    createdAt: row.createdAt.toISOString(),
    formattedDate: DATE_FORMAT.format(row.createdAt),
  };
}
