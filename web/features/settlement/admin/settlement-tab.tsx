import { AlertTriangle, Coins, Download, FileSearch, Play, Rocket, Wallet } from "lucide-react";
import type { ReactNode } from "react";
import type {
  ReconciliationReport,
  SettlementDeposit,
  SettlementOverview,
  SettlementPayout,
} from "@/contract/settlement";
import { canUse } from "@/contract/staff-capabilities";
import { ListEmpty, ListError, ListHeader, ListSkeleton } from "@/web/components/admin/list-states";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import {
  reconciliationCsvPath,
  useReconciliations,
  useSettlementOverview,
} from "@/web/features/settlement/admin/api/get-settlement";
import { useRunReconciliation } from "@/web/features/settlement/admin/api/run-reconciliation";
import { useSpeedUpPayout } from "@/web/features/settlement/admin/api/speed-up-payout";
import { DepositReturn } from "@/web/features/settlement/admin/deposit-return";
import { ReportDifferences } from "@/web/features/settlement/admin/report-differences";
import {
  mayBeSettledOutside,
  ProposeSettledOutside,
  SettledOutsideNote,
} from "@/web/features/settlement/admin/settled-outside";
import { FeesCard, SettlementAlerts } from "@/web/features/settlement/admin/settlement-alerts";
import { TreasuryCard } from "@/web/features/settlement/admin/treasury-card";
import { shortHash, TxLink } from "@/web/features/settlement/admin/tx-link";
import { ApiError } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { formatDateTime } from "@/web/lib/format";
import { isStepUpCancelled } from "@/web/lib/step-up";

type ChainOverview = Extract<SettlementOverview, { mode: "chain" }>;
type Tone = BadgeProps["tone"];

/** "45 s", "12 min", "3 h", "2 d". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** A USDC amount with 6 decimals shown as dollars and cents, rounded down ("1234.567800" → "$1,234.56"). */
function usdc(value: string | null): string {
  if (value === null) return "—";
  const [whole = "0", frac = ""] = value.replace("-", "").split(".");
  const sign = value.startsWith("-") ? "−" : "";
  return `${sign}$${Number(whole).toLocaleString("en-US")}.${frac.padEnd(2, "0").slice(0, 2)}`;
}

const PAYOUT_TONES: Record<SettlementPayout["status"], Tone> = {
  queued: "pending",
  held: "pending",
  signed: "pending",
  sent: "pending",
  completed: "positive",
  failed: "negative",
};
const DEPOSIT_TONES: Record<SettlementDeposit["status"], Tone> = {
  pending: "pending",
  under_review: "pending",
  credited: "positive",
  below_cent: "neutral",
  reversed: "negative",
};
const DEPOSIT_LABELS: Record<SettlementDeposit["status"], string> = {
  pending: "pending",
  under_review: "held for compliance review",
  credited: "credited",
  below_cent: "below one cent",
  reversed: "reversed: returned deposit",
};
const REPORT_TONES: Record<ReconciliationReport["status"], Tone> = {
  running: "pending",
  clean: "positive",
  differences: "negative",
  error: "negative",
};

function Counts<K extends string>({ counts, label }: { counts: Record<K, number>; label: (k: K) => string }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Counts by state">
      {(Object.entries(counts) as [K, number][]).map(([state, n]) => (
        <li key={state}>
          <Badge>
            {label(state)} <span className="tabular-nums">{n}</span>
          </Badge>
        </li>
      ))}
    </ul>
  );
}

function Figure({ label, value, warning }: { label: string; value: ReactNode; warning?: string | null }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-lg border border-line p-4">
      <span className="text-xs text-ink-muted">{label}</span>
      <span className="text-xl font-semibold text-ink tabular-nums">{value}</span>
      {warning ? (
        <span className="flex items-center gap-1.5 text-xs text-negative">
          <AlertTriangle className="size-3.5 shrink-0" aria-hidden />
          {warning}
        </span>
      ) : null}
    </div>
  );
}

function HotWalletCard({ data }: { data: ChainOverview }) {
  const w = data.hotWallet;
  const lows = [w.lowUsdc ? "USDC" : null, w.lowGas ? "gas" : null].filter(Boolean);
  return (
    <Card>
      <ListHeader
        title="Hot wallet"
        description={`${data.chainName} · ${data.confirmations} confirmations · block ${data.headBlock ?? "unknown"}`}
      />
      <CardContent className="grid gap-4">
        {data.nodeError ? (
          <p role="alert" className="rounded-lg bg-negative-soft p-3 text-sm text-negative">
            {data.nodeError}. Balances and confirmations are unknown until it answers.
          </p>
        ) : null}
        {lows.length > 0 ? (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-pending-soft p-3 text-sm text-pending"
          >
            <AlertTriangle className="size-4 shrink-0" aria-hidden />
            The hot wallet is low on {lows.join(" and ")}: fund it, or payouts will wait.
          </p>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <Figure
            label="USDC"
            value={usdc(w.usdc)}
            warning={w.lowUsdc ? `Below the ${w.lowUsdcThreshold} threshold` : null}
          />
          <Figure
            label={`Gas (${w.gasSymbol})`}
            value={w.gas === null ? "—" : Number(w.gas).toFixed(4)}
            warning={w.lowGas ? `Below the ${w.lowGasThreshold} ${w.gasSymbol} threshold` : null}
          />
        </div>
        <p className="min-w-0 text-xs text-ink-muted">
          Address{" "}
          {w.explorerUrl ? (
            <a
              href={w.explorerUrl}
              target="_blank"
              rel="noreferrer"
              className="font-mono break-all text-brand-700"
            >
              {w.address}
            </a>
          ) : (
            <code className="font-mono break-all">{w.address}</code>
          )}
        </p>
      </CardContent>
    </Card>
  );
}

function SpeedUpButton({ payout }: { payout: SettlementPayout }) {
  const speedUp = useSpeedUpPayout();
  const failed = speedUp.error && !isStepUpCancelled(speedUp.error) ? speedUp.error : null;
  return (
    <span className="grid justify-items-start gap-1">
      <Button
        size="sm"
        variant="secondary"
        disabled={speedUp.isPending}
        onClick={() => speedUp.mutate(payout.id)}
        aria-label={`Speed up the ${payout.amount} payout at nonce ${payout.nonce}`}
      >
        <Rocket aria-hidden />
        {speedUp.isPending ? "Speeding up…" : "Speed up"}
      </Button>
      {speedUp.isSuccess ? (
        <span role="status" className="text-xs text-ink-muted">
          Replacement sent: <code className="font-mono">{shortHash(speedUp.data.txHash)}</code>
        </span>
      ) : null}
      {failed ? (
        <span role="alert" className="text-xs text-negative">
          {failed instanceof ApiError ? failed.message : "Could not speed it up. Try again."}
        </span>
      ) : null}
    </span>
  );
}

const WAITING_NOTES: Record<string, string> = {
  usdc: "Waiting: hot wallet short of USDC",
  gas: "Waiting: hot wallet short of gas",
  fee_ceiling: "Paused: the fee is above the ceiling",
  nonce_used_outside: "Waits for staff: its nonce was used outside Pillar",
};

function PayoutRow({ p, confirmations }: { p: SettlementPayout; confirmations: number }) {
  const note =
    p.failureReason ??
    (p.waitingReason ? (WAITING_NOTES[p.waitingReason] ?? `Waiting: ${p.waitingReason}`) : null) ??
    (p.waitingBehindNonce !== null ? `Waiting behind nonce ${p.waitingBehindNonce}` : null);
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1.5 py-3 text-sm md:grid md:grid-cols-[7rem_7rem_1fr_4rem_6rem_4rem_11rem] md:gap-4">
      <span className="font-medium text-ink tabular-nums md:text-right">−{p.amount}</span>
      <span className="flex flex-wrap items-center gap-1">
        <Badge tone={PAYOUT_TONES[p.status]}>{p.status}</Badge>
        {p.stuck ? <Badge tone="negative">stuck</Badge> : null}
      </span>
      <span className="grid min-w-0 gap-0.5">
        <TxLink hash={p.txHash} href={p.explorerUrl} />
        {note ? <span className="text-xs text-ink-muted">{note}</span> : null}
      </span>
      <span className="text-ink-muted tabular-nums">
        <span className="md:sr-only">Nonce </span>
        {p.nonce ?? "—"}
      </span>
      <span className="text-ink-muted tabular-nums">
        {Math.min(p.confirmations, confirmations)} / {confirmations}
        <span className="md:sr-only"> conf.</span>
      </span>
      <span className="text-ink-muted tabular-nums">
        <span className="md:sr-only">Age </span>
        {formatAge(p.ageSeconds)}
      </span>
      <span className="grid justify-items-start gap-1.5">
        {p.stuck ? <SpeedUpButton payout={p} /> : null}
        {mayBeSettledOutside(p) && (p.stuck || (p.waitingReason && p.waitingReason !== "fee_ceiling")) ? (
          <ProposeSettledOutside payout={p} />
        ) : null}
      </span>
      <SettledOutsideNote payout={p} />
    </li>
  );
}

function PayoutsCard({ data }: { data: ChainOverview }) {
  const stuck = data.payouts.filter((p) => p.stuck).length;
  return (
    <Card>
      <ListHeader
        title="Payouts"
        description={
          stuck > 0
            ? `${stuck} stuck: every later payout waits behind it. Speed up signs a replacement at the same nonce with a higher fee.`
            : "Open payouts first, then the latest settled"
        }
      >
        <Counts counts={data.payoutCounts} label={(k) => k} />
      </ListHeader>
      <CardContent>
        {data.payouts.length === 0 ? (
          <ListEmpty
            icon={Coins}
            title="No payouts yet"
            text="Approved transfers appear here as they are sent on chain."
          />
        ) : (
          <>
            <div
              aria-hidden
              className="hidden gap-4 border-b border-line pb-2 text-xs text-ink-muted md:grid md:grid-cols-[7rem_7rem_1fr_4rem_6rem_4rem_11rem]"
            >
              <span className="text-right">Amount</span>
              <span>State</span>
              <span>Transaction</span>
              <span>Nonce</span>
              <span>Confirmations</span>
              <span>Age</span>
              <span />
            </div>
            <ul className="divide-y divide-line" aria-label="Payouts">
              {data.payouts.map((p) => (
                <PayoutRow key={p.id} p={p} confirmations={data.confirmations} />
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Customers a reversed deposit left below zero: nothing leaves their account until they cover it (decision 056). */
function ReturnedDeposits({ rows }: { rows: ChainOverview["returnedDeposits"] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-label="Returned deposits" className="mb-4 grid gap-2 border-b border-line pb-4 text-sm">
      <p className="font-medium text-ink">
        Returned deposits: customers below zero after a deposit was reversed (sending refused until covered)
      </p>
      <ul className="divide-y divide-line">
        {rows.map((r) => (
          <li key={r.userId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 truncate text-ink">{r.email || r.userId}</span>
            <span className="font-medium text-negative tabular-nums">{r.balance}</span>
            <span className="text-ink-muted tabular-nums">owes {r.owed}</span>
            <span className="text-ink-muted">
              {r.reversedDeposits} reversed deposit{r.reversedDeposits === 1 ? "" : "s"}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DepositsCard({ data }: { data: ChainOverview }) {
  return (
    <Card>
      <ListHeader title="Deposits" description="Pending first, then the latest credited">
        <Counts counts={data.depositCounts} label={(k) => DEPOSIT_LABELS[k]} />
      </ListHeader>
      <CardContent>
        <ReturnedDeposits rows={data.returnedDeposits} />
        {data.deposits.length === 0 ? (
          <ListEmpty
            icon={Wallet}
            title="No deposits yet"
            text="USDC sent to customers' deposit addresses appears here."
          />
        ) : (
          <>
            <div
              aria-hidden
              className="hidden gap-4 border-b border-line pb-2 text-xs text-ink-muted md:grid md:grid-cols-[7rem_8rem_1fr_6rem_4rem_11rem]"
            >
              <span className="text-right">Amount</span>
              <span>State</span>
              <span>Transaction</span>
              <span>Confirmations</span>
              <span>Age</span>
              <span />
            </div>
            <ul className="divide-y divide-line" aria-label="Deposits">
              {data.deposits.map((d) => (
                <li
                  key={d.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1.5 py-3 text-sm md:grid md:grid-cols-[7rem_8rem_1fr_6rem_4rem_11rem] md:gap-4"
                >
                  <span className="font-medium text-positive tabular-nums md:text-right">+{d.amount}</span>
                  <span>
                    <Badge tone={DEPOSIT_TONES[d.status]}>{DEPOSIT_LABELS[d.status]}</Badge>
                  </span>
                  <TxLink hash={d.txHash} href={d.explorerUrl} />
                  <span className="text-ink-muted tabular-nums">
                    {Math.min(d.confirmations, data.confirmations)} / {data.confirmations}
                    <span className="md:sr-only"> conf.</span>
                  </span>
                  <span className="text-ink-muted tabular-nums">
                    <span className="md:sr-only">Age </span>
                    {formatAge(d.ageSeconds)}
                  </span>
                  <DepositReturn deposit={d} />
                </li>
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ReportRow({ r }: { r: ReconciliationReport }) {
  return (
    <li className="grid gap-2 py-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center">
      <span className="grid min-w-0 gap-1">
        <span className="flex flex-wrap items-center gap-2">
          <Badge tone={REPORT_TONES[r.status]}>{r.status}</Badge>
          <span className="text-ink tabular-nums">{formatDateTime(r.startedAt)}</span>
          <span className="text-xs text-ink-muted">
            {r.trigger === "staff" ? `run by ${r.requestedBy ?? "a deleted staff member"}` : "hourly"}
          </span>
        </span>
        <span className="text-xs text-ink-muted tabular-nums">
          {r.status === "error"
            ? r.error
            : `${r.differences} ${r.differences === 1 ? "difference" : "differences"} open (${r.newDifferences} new${r.acknowledged > 0 ? `, ${r.acknowledged} acknowledged` : ""}), ${r.resolved} resolved, ${r.awaiting} awaiting · hot wallet ${usdc(r.hotOnChainUsdc)} on chain, ${usdc(r.hotExpectedUsdc)} by the ledger · block ${r.asOfBlock ?? "—"}`}
        </span>
      </span>
      {r.status === "running" ? null : (
        <Button asChild variant="secondary" size="sm" className="justify-self-start">
          <a href={reconciliationCsvPath(r.id)} download>
            <Download aria-hidden />
            CSV<span className="sr-only"> of the report from {formatDateTime(r.startedAt)}</span>
          </a>
        </Button>
      )}
      <ReportDifferences report={r} />
    </li>
  );
}

function ReconciliationCard() {
  const { data: user } = useCurrentUser();
  const reports = useReconciliations(true);
  const run = useRunReconciliation();
  const mayRun = canUse(user?.staffRoles ?? [], "runReconciliation");
  const latest = reports.data?.reports[0];
  return (
    <Card>
      <ListHeader
        title="Reconciliation"
        description="Hourly: the hot wallet, payouts and deposits on chain against the ledger"
        action={
          mayRun ? (
            <Button size="sm" className="self-start" disabled={run.isPending} onClick={() => run.mutate()}>
              <Play aria-hidden />
              {run.isPending ? "Running…" : "Run now"}
            </Button>
          ) : null
        }
      />
      <CardContent className="grid gap-4">
        {run.error ? (
          <p role="alert" className="text-sm text-negative">
            {run.error instanceof ApiError ? run.error.message : "The run did not finish. Try again."}
          </p>
        ) : null}
        {latest && latest.differences > latest.acknowledged ? (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-negative-soft p-3 text-sm text-negative"
          >
            <AlertTriangle className="size-4 shrink-0" aria-hidden />
            The latest report has {latest.differences - latest.acknowledged}{" "}
            {latest.differences - latest.acknowledged === 1 ? "difference" : "differences"} between the chain
            and the ledger that nobody has acknowledged. Show them to explain each, or download the report.
          </p>
        ) : null}
        {reports.isPending ? (
          <ListSkeleton label="Loading reconciliation reports" />
        ) : reports.isError ? (
          <ListError what="reconciliation reports" onRetry={() => reports.refetch()} />
        ) : reports.data.reports.length === 0 ? (
          <ListEmpty
            icon={FileSearch}
            title="No reports yet"
            text="The first hourly run, or Run now, writes one."
          />
        ) : (
          <ul className="divide-y divide-line" aria-label="Reconciliation reports, newest first">
            {reports.data.reports.map((r) => (
              <ReportRow key={r.id} r={r} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** Finance and owners: the hot wallet, payouts, deposits and reconciliation (decision 038). */
export default function SettlementTab() {
  const overview = useSettlementOverview();
  if (overview.isPending) {
    return (
      <Card>
        <CardContent className="py-6">
          <ListSkeleton label="Loading settlement" />
        </CardContent>
      </Card>
    );
  }
  if (overview.isError) {
    return (
      <Card>
        <CardContent className="py-6">
          <ListError what="settlement" onRetry={() => overview.refetch()} />
        </CardContent>
      </Card>
    );
  }
  const data = overview.data;
  if (data.mode === "manual") {
    return (
      <Card>
        <ListHeader title="Settlement" description="Manual settlement" />
        <CardContent>
          <p role="status" className="rounded-lg bg-canvas p-4 text-sm text-ink">
            {data.message}
          </p>
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="grid gap-6">
      <SettlementAlerts alerts={data.alerts} />
      <HotWalletCard data={data} />
      <FeesCard fees={data.fees} />
      <PayoutsCard data={data} />
      <DepositsCard data={data} />
      <TreasuryCard confirmations={data.confirmations} />
      <ReconciliationCard />
    </div>
  );
}
