import { APPROVAL_KIND_LABELS, type ApprovalKind } from "@/contract/approvals";
import { formatMoney } from "@/contract/money";
import { STAFF_ROLE_LABELS, type StaffRole } from "@/contract/staff";

/** Keys holding cents. */
const MONEY_KEYS = new Set(["balance", "amount", "amountCents", "held"]);
/** Keys shown elsewhere in the row (customer, staff member, reason) or meaningless to a reader (ids, paths). */
const HIDDEN_KEYS = new Set([
  "userId",
  "makerId",
  "kycId",
  "messageId",
  "uploadId",
  "reason",
  "flaggedTransferIds",
]);
const LABELS: Record<string, string> = {
  balance: "Balance",
  amount: "Amount",
  amountCents: "Amount",
  held: "Held",
  status: "Status",
  paymentStatus: "Payment",
  creditStatus: "Credit",
  kycStatus: "KYC",
  frozenAt: "Account",
  kind: "Request",
  staffRoles: "Roles",
  adminNotes: "Notes",
  sessionsEnded: "Sessions ended",
};

const labelOf = (key: string) =>
  LABELS[key] ?? key.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());

function shownValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") {
    if (key === "frozenAt") return "Not frozen";
    return key.endsWith("Status") ? "Not created" : "—";
  }
  if (MONEY_KEYS.has(key) && typeof value === "number") return formatMoney(value);
  if (key === "frozenAt") return "Frozen";
  if (key === "kind" && typeof value === "string" && value in APPROVAL_KIND_LABELS)
    return APPROVAL_KIND_LABELS[value as ApprovalKind];
  if (key === "staffRoles" && Array.isArray(value))
    return value.length
      ? value.map((r) => STAFF_ROLE_LABELS[r as StaffRole] ?? String(r)).join(", ")
      : "None";
  if (typeof value === "string") return value.replaceAll("_", " ");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? `${value.length} item${value.length === 1 ? "" : "s"}` : "…";
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * An audit row's before/after as lines a person reads: "Balance $0.00 → $1,500.00", "Status pending → completed",
 * cents as dollars, no ids (the row names the customer and the staff member itself). Unchanged values show once.
 */
export function describeAuditChange(before: unknown, after: unknown): string[] {
  const from = asRecord(before);
  const to = asRecord(after);
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((k) => !HIDDEN_KEYS.has(k));
  return keys.map((key) => {
    const label = labelOf(key);
    const was = key in from ? shownValue(key, from[key]) : null;
    const now = key in to ? shownValue(key, to[key]) : null;
    if (was === null) return `${label} ${now}`;
    if (now === null || was === now) return `${label} ${was}`;
    return `${label} ${was} → ${now}`;
  });
}
