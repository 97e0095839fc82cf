import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  APPROVAL_KIND_LABELS,
  APPROVAL_MESSAGES,
  type Approval,
  type ApprovalStatus,
  type RiskSignals,
} from "@/contract/approvals";
import { formatMoney } from "@/contract/money";
import type { Page, PageQuery } from "@/contract/pages";
import { formatApy } from "@/contract/savings-text";
import type { StaffRole } from "@/contract/staff";
import type { DbOrTx } from "@/server/db/client";
import { approvals, users } from "@/server/db/schema";
import type { ApprovalPayload, ApprovalRow } from "@/server/features/approvals/approval-actions";
import { AppError } from "@/server/lib/errors";
import { beforeFlagTimeKey, exactTime, toPage } from "@/server/lib/keyset-page";

const makers = alias(users, "makers");
const checkers = alias(users, "checkers");
const isPending = sql<boolean>`(${approvals.status} = 'pending')`;

/**
 * Risk signals, computed when read (each a lookup on the customer's own index range): how new the account is,
 * devices first seen in the last 7 days, recent transfers to never-used addresses, past completed credits
 * before this request (adjustments and moves from the customer's own savings excluded), a freeze, and a rejected current KYC application.
 */
const riskColumns = {
  accountAgeDays: sql<number | null>`floor(extract(epoch from now() - ${users.createdAt}) / 86400)::int`,
  frozen: sql<boolean>`coalesce(${users.frozenAt} is not null, false)`,
  newDevices7d: sql<number>`(select count(*)::int from known_devices d
    where d.user_id = ${approvals.userId} and d.created_at > now() - interval '7 days')`,
  firstTimeAddresses7d: sql<number>`(select count(distinct r.crypto_address)::int from transfer_requests r
    where r.user_id = ${approvals.userId} and r.created_at > now() - interval '7 days'
      and not exists (select 1 from transfer_requests e where e.user_id = r.user_id
        and e.crypto_address = r.crypto_address and e.created_at < r.created_at))`,
  credits: sql<{ largest: number | null; average: number | null; count: number }>`(select json_build_object(
      'largest', max(t.amount), 'average', round(avg(t.amount)), 'count', count(*))
    from transactions t where t.user_id = ${approvals.userId} and t.status = 'completed'
      and t.type in ('credit', 'incoming_payment') and t.source_type not in ('adjustment', 'savings')
      and t.created_at < ${approvals.createdAt})`,
  kycRejected: sql<boolean>`exists (select 1 from kyc_applications k
    where k.user_id = ${approvals.userId} and k.superseded_at is null and k.status = 'rejected')`,
};

const columns = {
  a: approvals,
  key: exactTime(approvals.createdAt),
  pending: isPending,
  ageSeconds: sql<number>`greatest(0, extract(epoch from now() - ${approvals.createdAt}))::int`,
  user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
  makerEmail: makers.email,
  checkerEmail: checkers.email,
  ...riskColumns,
};

type ListRow = {
  a: ApprovalRow;
  key: string;
  pending: boolean;
  ageSeconds: number;
  user: { id: string; email: string; firstName: string; lastName: string } | null;
  makerEmail: string | null;
  checkerEmail: string | null;
  accountAgeDays: number | null;
  frozen: boolean;
  newDevices7d: number;
  firstTimeAddresses7d: number;
  credits: { largest: number | string | null; average: number | string | null; count: number | string };
  kycRejected: boolean;
};

function baseQuery(db: DbOrTx) {
  return db
    .select(columns)
    .from(approvals)
    .leftJoin(users, eq(users.id, approvals.userId))
    .leftJoin(makers, eq(makers.id, approvals.makerId))
    .leftJoin(checkers, eq(checkers.id, approvals.checkerId));
}

/** One line a checker reads: what happens when this is approved. */
function summarise(row: ApprovalRow): string {
  const payload = row.payload as ApprovalPayload;
  const amount = row.amount === null ? "" : formatMoney(Math.abs(row.amount));
  switch (payload.op) {
    case "create_payment":
      return `New incoming payment of ${amount}, completed on approval`;
    case "complete_payment":
      return `Complete the pending incoming payment of ${amount}`;
    case "create_credit":
      return `Credit of ${amount}: ${payload.input.description}`;
    case "complete_credit":
      return `Complete the pending credit of ${amount}`;
    case "adjust_balance":
      return `Set the balance from ${formatMoney(payload.expected)} to ${formatMoney(payload.target)} (${(row.amount ?? 0) < 0 ? "-" : "+"}${amount})`;
    case "kyc_reset":
      return "Reopen the rejected KYC application (back to pending review)";
    case "unfreeze":
      return "Lift the account freeze";
    case "release_transfer":
      return `Move the flagged transfer of ${amount} to ${payload.input.status === "approved" ? "completed" : payload.input.status}`;
    case "settle_payout_outside":
      return `Record the payout of ${amount} as settled outside Pillar${payload.txHash ? ` by ${payload.txHash}` : ""}: the transfer completes and Pillar never sends it`;
    case "return_deposit":
      return `Return the deposit of ${amount} to its sender on chain, from the hot wallet`;
    case "savings_rate":
      return `Set the savings APY to ${formatApy(payload.apyBps)} from ${payload.effectiveOn} (New York); customers with savings are told`;
    case "lift_send_block":
      return `Lift the customer's own block on crypto sends now, cooldown and all (identity re-verified: ${payload.identityCheck})`;
    default:
      return APPROVAL_KIND_LABELS[row.kind];
  }
}

function toRisk(r: ListRow): RiskSignals | null {
  if (!r.user) return null;
  const largest = r.credits.largest === null ? null : Number(r.credits.largest);
  const amount = r.a.amount !== null && r.a.amount > 0 ? r.a.amount : null;
  return {
    accountAgeDays: r.accountAgeDays,
    newDevices7d: r.newDevices7d,
    firstTimeAddresses7d: r.firstTimeAddresses7d,
    largestCreditCents: largest,
    averageCreditCents: r.credits.average === null ? null : Number(r.credits.average),
    creditCount: Number(r.credits.count),
    amountVsLargest: amount !== null && largest ? Math.round((amount / largest) * 10) / 10 : null,
    frozen: r.frozen,
    kycRejected: r.kycRejected,
  };
}

function toApproval(r: ListRow): Approval {
  const a = r.a;
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    user: r.user,
    summary: summarise(a),
    amountCents: a.amount,
    before: a.before as Record<string, unknown>,
    after: a.after as Record<string, unknown>,
    reason: a.reason,
    maker: { id: a.makerId, email: r.makerEmail, role: a.makerRole as StaffRole },
    checker: a.checkerId
      ? { id: a.checkerId, email: r.checkerEmail, role: a.checkerRole as StaffRole }
      : null,
    decisionReason: a.decisionReason,
    createdAt: a.createdAt.toISOString(),
    decidedAt: a.decidedAt?.toISOString() ?? null,
    ageSeconds: r.ageSeconds,
    riskSignals: toRisk(r),
    creditWindow:
      a.makerWindowTotal !== null && a.customerWindowTotal !== null
        ? { makerCents: a.makerWindowTotal, customerCents: a.customerWindowTotal }
        : null,
  };
}

/** GET /api/admin/approvals: pending first (newest first within each group), keyset paged. */
export async function findApprovals(
  db: DbOrTx,
  { cursor, limit, status }: PageQuery & { status: ApprovalStatus | "all" },
): Promise<Page<Approval>> {
  const rows = (await baseQuery(db)
    .where(
      and(
        status === "all" ? undefined : eq(approvals.status, status),
        beforeFlagTimeKey(isPending, approvals.createdAt, approvals.id, cursor),
      ),
    )
    .orderBy(desc(isPending), desc(approvals.createdAt), desc(approvals.id))
    .limit(limit + 1)) as ListRow[];
  return toPage(rows, limit, (r) => [r.pending ? "1" : "0", r.key, r.a.id], toApproval);
}

export async function getApproval(db: DbOrTx, id: string): Promise<Approval> {
  const [row] = (await baseQuery(db).where(eq(approvals.id, id))) as ListRow[];
  if (!row) throw new AppError("NOT_FOUND", APPROVAL_MESSAGES.notFound);
  return toApproval(row);
}
