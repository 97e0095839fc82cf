import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { formatEther, getAddress } from "viem";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import {
  type ReconciliationItem,
  type ReconciliationReport,
  SETTLEMENT_ADMIN_ENDPOINTS,
  SETTLEMENT_ADMIN_MESSAGES,
  type SettledOutside,
  type SettlementOverview,
  unitsToUsdc,
} from "@/contract/settlement";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { acknowledgeDifference } from "@/server/features/settlement/acknowledge-difference";
import { chainClient, chainName } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { returnRefusal } from "@/server/features/settlement/deposit-returns";
import { speedUpPayout } from "@/server/features/settlement/payout-worker";
import { runReconciliation } from "@/server/features/settlement/reconciliation";
import { reportCsv } from "@/server/features/settlement/reconciliation-csv";
import { findReturnedDeposits } from "@/server/features/settlement/returned-deposits";
import { findSettledOutside, proposeSettledOutside } from "@/server/features/settlement/settle-outside";
import {
  readSettlementHealth,
  settlementAlerts,
  settlementHealth,
} from "@/server/features/settlement/settlement-health";
import { writeAudit } from "@/server/lib/audit";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { signedInUser } from "@/server/lib/session-plugin";

const RECENT_REPORTS = 20;

// Timestamps come back as their text on both drivers (Drizzle leaves them unparsed); bigint and numeric columns
// are cast to text in the SQL, counts to int. The enums are the tables' CHECK constraints (migrations 0032, 0047).
const reportRow = z.object({
  id: z.string(),
  trigger: z.enum(["scheduled", "staff"]),
  requested_by: z.string().nullable(),
  requested_by_email: z.string().nullable(),
  status: z.enum(["running", "clean", "differences", "error"]),
  as_of_block: z.string().nullable(),
  head_block: z.string().nullable(),
  hot_onchain_units: z.string().nullable(),
  hot_expected_units: z.string().nullable(),
  differences: z.number(),
  new_differences: z.number(),
  resolved: z.number(),
  acknowledged: z.number(),
  awaiting: z.number(),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
type ReportRow = z.infer<typeof reportRow>;

const itemRow = z.object({
  id: z.string(),
  ack_by: z.string().nullable(),
  ack_at: z.string().nullable(),
  ack_reason: z.string().nullable(),
  area: z.enum(["hot_wallet", "payouts", "deposits"]),
  kind: z.string(),
  outcome: z.enum(["difference", "awaiting", "resolved"]),
  tx_hash: z.string().nullable(),
  reference: z.string().nullable(),
  chain_units: z.string().nullable(),
  ledger_units: z.string().nullable(),
  detail: z.string(),
  first_report_id: z.string().nullable(),
  first_seen_block: z.string().nullable(),
  resolved_block: z.string().nullable(),
});

// The payouts_status and chain_deposits_status CHECK constraints (migrations 0025, 0046).
const payoutStatus = z.enum(["queued", "held", "signed", "sent", "completed", "failed"]);
const depositStatus = z.enum(["pending", "held", "credited", "below_cent", "reversed"]);

const payoutRow = z.object({
  id: z.string(),
  transfer_request_id: z.string(),
  status: payoutStatus,
  amount: z.string(),
  to_address: z.string(),
  tx_hash: z.string().nullable(),
  nonce: z.string().nullable(),
  attempts: z.number(),
  mined_block: z.string().nullable(),
  created_at: z.string(),
  last_signed_at: z.string().nullable(),
  waiting_reason: z.string().nullable(),
  failure_reason: z.string().nullable(),
});

const depositRow = z.object({
  id: z.string(),
  tx_hash: z.string(),
  log_index: z.number(),
  to_address: z.string(),
  amount_cents: z.string(),
  status: depositStatus,
  block_number: z.string(),
  seen_at: z.string(),
  user_id: z.string().nullable(),
  returned_by: z.string().nullable(),
  open_return: z.boolean(),
  return_proposed: z.boolean(),
});

// A count per status: `counts` picks the statuses it shows by name, so the status stays a string (the deposits'
// is a case expression that shows 'held' as 'under_review', not the column).
const statusCount = z.object({ status: z.string(), count: z.number() });
type StatusCount = z.infer<typeof statusCount>;

const REPORT_COLUMNS = sql`r.id, r.trigger, r.requested_by, u.email as requested_by_email, r.status,
  r.as_of_block::text, r.head_block::text, r.hot_onchain_units::text, r.hot_expected_units::text, r.differences,
  r.new_differences, r.resolved,
  (select count(*)::int from reconciliation_items i left join reconciliation_differences d on d.id = i.difference_id
   where i.report_id = r.id and i.outcome = 'difference'
     and (d.acknowledged_at is not null
       or (i.difference_id is null and exists (select 1 from reconciliation_acknowledgments k
             where k.chain_id = r.chain_id and k.fingerprint = i.fingerprint)))) as acknowledged,
  r.awaiting, r.error, r.started_at, r.finished_at`;

const usdcOrNull = (units: string | null) => (units === null ? null : unitsToUsdc(units));
const asDate = (d: Date | string) => new Date(d).toISOString();

function toReport(r: ReportRow): ReconciliationReport {
  return {
    id: r.id,
    trigger: r.trigger,
    requestedBy: r.requested_by_email,
    status: r.status,
    asOfBlock: r.as_of_block === null ? null : Number(r.as_of_block),
    headBlock: r.head_block === null ? null : Number(r.head_block),
    hotOnChainUsdc: usdcOrNull(r.hot_onchain_units),
    hotExpectedUsdc: usdcOrNull(r.hot_expected_units),
    differences: r.differences,
    newDifferences: r.new_differences,
    resolved: r.resolved,
    acknowledged: r.acknowledged,
    awaiting: r.awaiting,
    error: r.error,
    startedAt: asDate(r.started_at),
    finishedAt: r.finished_at ? asDate(r.finished_at) : null,
  };
}

export async function findReports(db: DbOrTx, chainId: number | null, limit = RECENT_REPORTS) {
  if (chainId === null) return [];
  const rows = await queryRows(
    db,
    sql`select ${REPORT_COLUMNS} from reconciliation_reports r left join users u on u.id = r.requested_by
        where r.chain_id = ${chainId} order by r.started_at desc, r.id desc limit ${limit}`,
    reportRow,
  );
  return rows.map(toReport);
}

async function findReport(db: DbOrTx, chainId: number | null, id: string, explorerUrl?: string) {
  const [row] =
    chainId === null
      ? []
      : await queryRows(
          db,
          sql`select ${REPORT_COLUMNS} from reconciliation_reports r left join users u on u.id = r.requested_by
              where r.id = ${id} and r.chain_id = ${chainId}`,
          reportRow,
        );
  if (!row) throw new AppError("NOT_FOUND", "No such reconciliation report");
  const items = await queryRows(
    db,
    // An acknowledgment belongs to the difference (decision 057); an item from before differences were kept
    // finds it by fingerprint (decision 040).
    sql`select i.id::text, i.area, i.kind, i.outcome, i.tx_hash, i.reference, i.chain_units::text,
               i.ledger_units::text, i.detail, u.email as ack_by,
               coalesce(d.acknowledged_at, k.acknowledged_at) as ack_at,
               coalesce(d.acknowledgment_reason, k.reason) as ack_reason,
               d.first_report_id, d.first_seen_block::text, d.resolved_block::text
        from reconciliation_items i
        left join reconciliation_differences d on d.id = i.difference_id
        left join reconciliation_acknowledgments k
          on i.difference_id is null and i.outcome = 'difference' and k.chain_id = ${chainId}
         and k.fingerprint = i.fingerprint
        left join users u on u.id = coalesce(d.acknowledged_by, k.acknowledged_by)
        where i.report_id = ${id}
        order by case i.outcome when 'difference' then 0 when 'resolved' then 1 else 2 end, i.id`,
    itemRow,
  );
  return {
    report: toReport(row),
    items: items.map(
      (i): ReconciliationItem => ({
        id: i.id,
        area: i.area,
        kind: i.kind,
        outcome: i.outcome,
        txHash: i.tx_hash,
        reference: i.reference,
        chainUsdc: usdcOrNull(i.chain_units),
        ledgerUsdc: usdcOrNull(i.ledger_units),
        detail: i.detail,
        explorerUrl: explorerUrl && i.tx_hash ? `${explorerUrl}/tx/${i.tx_hash}` : null,
        acknowledgment:
          i.ack_at === null || i.outcome === "awaiting"
            ? null
            : { by: i.ack_by, at: asDate(i.ack_at), reason: i.ack_reason ?? "" },
        state:
          i.first_seen_block === null
            ? null
            : i.outcome === "resolved"
              ? "resolved"
              : i.first_report_id === id
                ? "new"
                : "open",
        firstSeenBlock: i.first_seen_block === null ? null : Number(i.first_seen_block),
        resolvedBlock:
          i.outcome === "resolved" && i.resolved_block !== null ? Number(i.resolved_block) : null,
      }),
    ),
  };
}

const LISTED = 50;

/** The tab's payouts: every open one, then the latest settled, newest first. */
async function listPayouts(db: DbOrTx, chainId: number) {
  return queryRows(
    db,
    sql`select p.id, p.transfer_request_id, p.status, r.net_amount::text as amount, p.to_address,
               coalesce(p.mined_hash, p.outside_tx_hash,
                        (select a.tx_hash from payout_attempts a where a.payout_id = p.id
                          order by a.created_at desc, a.id desc limit 1)) as tx_hash,
               p.nonce::text, (select count(*)::int from payout_attempts a where a.payout_id = p.id) as attempts,
               p.mined_block::text, p.created_at,
               (select max(a.created_at) from payout_attempts a where a.payout_id = p.id) as last_signed_at,
               p.waiting_reason, p.failure_reason
        from payouts p join transfer_requests r on r.id = p.transfer_request_id
        where p.chain_id = ${chainId}
        order by (p.status in ('completed', 'failed')), p.created_at desc
        limit ${LISTED}`,
    payoutRow,
  );
}

/** /api/admin/settlement/*: the Settlement tab (finance and owner, contract/admin-route-roles.ts). */
export async function adminSettlementRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const chain = app.deps.config.chain;
  const chainId = chain?.chainId ?? null;

  async function overview(): Promise<SettlementOverview> {
    if (!chain)
      return { mode: "manual", message: SETTLEMENT_ADMIN_MESSAGES.manual } satisfies SettlementOverview;
    const client = chainClient(chain);
    const hot = chain.signer.address;
    let head: number | null = null;
    let usdc: bigint | null = null;
    let gas: bigint | null = null;
    let minedNonce: number | null = null;
    let nodeError: string | null = null;
    try {
      [head, usdc, gas, minedNonce] = await Promise.all([
        client.getBlockNumber().then(Number),
        client.readContract({
          address: chain.usdcContract,
          abi: pillarUsdAbi,
          functionName: "balanceOf",
          args: [hot],
        }),
        client.getBalance({ address: hot }),
        client.getTransactionCount({ address: hot, blockTag: "latest" }),
      ]);
    } catch (err) {
      nodeError = `The node did not answer: ${(err as Error).message.split("\n")[0]}`;
    }
    const explorer = chain.explorerUrl;
    const txLink = (hash: string | null) => (explorer && hash ? `${explorer}/tx/${hash}` : null);
    const now = Date.now();
    const ageOf = (d: Date | string) => Math.max(0, Math.floor((now - new Date(d).getTime()) / 1000));
    const depth = (block: string | number | null) =>
      head === null || block === null ? 0 : Math.max(0, head - Number(block) + 1);

    const payoutRows = await listPayouts(db, chain.chainId);
    // The payout every later one waits behind is the one at the chain's next nonce (decision 058): a signed one
    // the node refused is it, not the sent ones above it. Without the node, the lowest open nonce stands in.
    const unmined = (p: (typeof payoutRows)[number]) =>
      (p.status === "signed" || p.status === "sent") && p.mined_block === null && p.nonce !== null;
    const openNonces = payoutRows.filter(unmined).map((p) => Number(p.nonce));
    const nextNonce = minedNonce ?? (openNonces.length > 0 ? Math.min(...openNonces) : null);
    const health = await readSettlementHealth(db, chain);
    const outside = await findSettledOutside(
      db,
      payoutRows.map((p) => p.id),
    );
    const outsideOf = (payoutId: string): SettledOutside | null => {
      const o = outside.get(payoutId);
      if (!o) return null;
      return {
        approvalId: o.approval_id,
        status: o.status,
        proposedBy: o.maker_email,
        approvedBy: o.status === "approved" ? o.checker_email : null,
        reason: o.reason,
        txHash: o.tx_hash,
        explorerUrl: txLink(o.tx_hash),
        proposedAt: asDate(o.created_at),
      };
    };
    const payoutCountRows = await queryRows(
      db,
      sql`select status, count(*)::int as count from payouts where chain_id = ${chain.chainId} group by status`,
      statusCount,
    );
    const depositRows = await queryRows(
      db,
      sql`select id, tx_hash, log_index, to_address, amount_cents::text, status, block_number::text, seen_at,
                 user_id, returned_by,
                 exists (select 1 from treasury_movements m
                          where m.deposit_id = chain_deposits.id and m.status <> 'failed') as open_return,
                 exists (select 1 from approvals a where a.kind = 'deposit_return' and a.status = 'pending'
                          and a.target_key = chain_deposits.id::text) as return_proposed
          from chain_deposits where chain_id = ${chain.chainId}
          order by (status not in ('pending', 'held', 'reversed')), seen_at desc, id desc limit ${LISTED}`,
      depositRow,
    );
    const depositCountRows = await queryRows(
      db,
      // 'held' in the table is what staff and the customer see as under review (decision 039).
      sql`select case status when 'held' then 'under_review' else status end as status, count(*)::int as count
            from chain_deposits where chain_id = ${chain.chainId} group by 1`,
      statusCount,
    );
    const counts = <K extends string>(keys: readonly K[], rows: StatusCount[]) =>
      Object.fromEntries(keys.map((k) => [k, rows.find((r) => r.status === k)?.count ?? 0])) as Record<
        K,
        number
      >;
    return {
      mode: "chain",
      chainId: chain.chainId,
      chainName: chainName(chain.chainId),
      confirmations: chain.confirmations,
      headBlock: head,
      nodeError,
      hotWallet: {
        address: getAddress(hot),
        usdc: usdc === null ? null : unitsToUsdc(usdc),
        gas: gas === null ? null : formatEther(gas),
        gasSymbol: "ETH",
        lowUsdcThreshold: formatMoney(chain.hotWalletLowUsdcCents),
        lowGasThreshold: formatEther(BigInt(chain.hotWalletLowGasWei)),
        lowUsdc: usdc !== null && usdc < BigInt(chain.hotWalletLowUsdcCents) * 10_000n,
        lowGas: gas !== null && gas < BigInt(chain.hotWalletLowGasWei),
        explorerUrl: explorer ? `${explorer}/address/${getAddress(hot)}` : null,
      },
      payoutCounts: counts(
        ["queued", "held", "signed", "sent", "completed", "failed"] as const,
        payoutCountRows,
      ),
      payouts: payoutRows.map((p) => ({
        id: p.id,
        transferRequestId: p.transfer_request_id,
        status: p.status,
        amount: formatMoney(BigInt(p.amount)),
        toAddress: p.to_address,
        txHash: p.tx_hash,
        nonce: p.nonce === null ? null : Number(p.nonce),
        attempts: p.attempts,
        confirmations: depth(p.mined_block),
        ageSeconds: ageOf(p.created_at),
        stuck:
          unmined(p) &&
          Number(p.nonce) === nextNonce &&
          p.last_signed_at !== null &&
          now - new Date(p.last_signed_at).getTime() >= chain.payoutRebroadcastAfterMs,
        waitingReason: p.waiting_reason,
        waitingBehindNonce:
          unmined(p) && nextNonce !== null && Number(p.nonce) > nextNonce ? nextNonce : null,
        failureReason: p.failure_reason,
        explorerUrl: txLink(p.tx_hash),
        settledOutside: outsideOf(p.id),
      })),
      depositCounts: counts(
        ["pending", "under_review", "credited", "below_cent", "reversed"] as const,
        depositCountRows,
      ),
      deposits: depositRows.map((d) => ({
        id: d.id,
        txHash: d.tx_hash,
        logIndex: d.log_index,
        toAddress: getAddress(d.to_address),
        amount: formatMoney(BigInt(d.amount_cents)),
        status: d.status === "held" ? ("under_review" as const) : d.status,
        confirmations: depth(d.block_number),
        ageSeconds: ageOf(d.seen_at),
        explorerUrl: txLink(d.tx_hash),
        // Without the node the depth is unknown: nothing is offered until it answers.
        returnable:
          head !== null &&
          !d.return_proposed &&
          returnRefusal(
            {
              status: d.status,
              returnedBy: d.returned_by,
              userId: d.user_id,
              openReturn: d.open_return,
              depth: depth(d.block_number),
            },
            chain.confirmations,
          ) === null,
        returnStatus: d.returned_by
          ? ("returned" as const)
          : d.open_return
            ? ("sending" as const)
            : d.return_proposed
              ? ("proposed" as const)
              : null,
      })),
      alerts: settlementAlerts(health, chain),
      fees: settlementHealth(health, chain),
      returnedDeposits: await findReturnedDeposits(db),
    } satisfies SettlementOverview;
  }

  registerEndpoints(app, SETTLEMENT_ADMIN_ENDPOINTS, {
    "GET /api/admin/settlement": overview,

    // Speed up: a replacement at the payout's nonce with a higher fee, now. Moves money on chain: audited.
    "POST /api/admin/settlement/payouts/:id/speed-up": async (request) => {
      // Manual settlement has no payouts on chain: every id is unknown.
      if (!chain)
        throw new AppError("NOT_FOUND", "No such payout: settlement is manual, nothing is on chain");
      const actor = signedInUser(request);
      return speedUpPayout(db, chain, request.params.id, (tx, payout, txHash) =>
        writeAudit(tx, {
          actorId: actor.id,
          action: "payout.speed_up",
          targetType: "transfer_request",
          targetId: payout.transferRequestId,
          before: { nonce: payout.nonce, status: payout.status },
          after: { txHash, nonce: payout.nonce },
        }),
      );
    },

    // Settled outside Pillar: one finance member proposes, a second approves on the approvals routes.
    "POST /api/admin/settlement/payouts/:id/settled-outside": async (request, reply) => {
      if (!chain)
        throw new AppError("NOT_FOUND", "No such payout: settlement is manual, nothing is on chain");
      const actor = signedInUser(request);
      const { status, body } = await proposeSettledOutside(db, chain, actor, request.params.id, request.body);
      return reply.code(status).send(body);
    },

    "GET /api/admin/settlement/reconciliations": async () => ({ reports: await findReports(db, chainId) }),

    // Run now: the same job as the hourly one, recorded with who asked, and audited.
    "POST /api/admin/settlement/reconciliations": async (request) => {
      if (!chain) {
        throw new AppError(
          "manual_settlement",
          "Settlement is manual (no chain is configured): there is nothing on chain to reconcile",
        );
      }
      const actor = signedInUser(request);
      const result = await runReconciliation(db, chain, {
        trigger: "staff",
        requestedBy: actor.id,
        log: request.log,
      });
      const { reportId, status, differences } = result!;
      await writeAudit(db, {
        actorId: actor.id,
        action: "settlement.reconcile",
        targetType: "reconciliation_report",
        targetId: reportId,
        after: { status, differences },
      });
      const detail = await findReport(db, chainId, reportId);
      return detail.report;
    },

    "GET /api/admin/settlement/reconciliations/:id": (request) =>
      findReport(db, chainId, request.params.id, chain?.explorerUrl),

    // Acknowledging a difference: a reason, audited (decision 040).
    "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge": async (request) => {
      const { id, itemId } = request.params;
      await acknowledgeDifference(db, chainId, id, itemId, signedInUser(request).id, request.body.reason);
      return findReport(db, chainId, id, chain?.explorerUrl);
    },

    "GET /api/admin/settlement/reconciliations/:id/report.csv": async (request, reply) => {
      const detail = await findReport(db, chainId, request.params.id);
      const stamp = detail.report.startedAt.slice(0, 19).replaceAll(":", "-");
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="pillar-reconciliation-${stamp}.csv"`)
        .header("cache-control", "no-store")
        .send(reportCsv(detail));
    },
  });
}
