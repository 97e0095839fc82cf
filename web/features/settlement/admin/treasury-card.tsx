import { AlertTriangle, ArrowRightLeft } from "lucide-react";
import type { TreasuryMovement, TreasuryOverview } from "@/contract/treasury";
import { ListEmpty, ListError, ListHeader, ListSkeleton } from "@/web/components/admin/list-states";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Card, CardContent } from "@/web/components/ui/card";
import { useTreasury } from "@/web/features/settlement/admin/api/get-treasury";
import { TxLink } from "@/web/features/settlement/admin/tx-link";

type ChainTreasury = Extract<TreasuryOverview, { mode: "chain" }>;

const KIND_LABELS: Record<TreasuryMovement["kind"], string> = {
  sweep: "sweep",
  to_cold: "to cold",
  return: "return",
};
const STATUS_TONES: Record<TreasuryMovement["status"], BadgeProps["tone"]> = {
  queued: "pending",
  signed: "pending",
  sent: "pending",
  completed: "positive",
  failed: "negative",
};
const WAITING: Record<NonNullable<TreasuryMovement["waitingReason"]>, string> = {
  gas_price: "Waiting: the chain's fee is above the sweep limit",
  usdc: "Waiting: hot wallet short of USDC",
  gas: "Waiting: hot wallet short of gas",
};

/** "45 s", "12 min", "3 h", "2 d" (as the payouts list shows ages). */
function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

function MovementRow({ m, confirmations }: { m: TreasuryMovement; confirmations: number }) {
  const note = m.failureReason ?? (m.waitingReason ? WAITING[m.waitingReason] : null);
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1.5 py-3 text-sm md:grid md:grid-cols-[7rem_9rem_1fr_4rem_6rem_4rem] md:gap-4">
      <span className="font-medium text-ink tabular-nums md:text-right">{m.amount}</span>
      <span className="flex flex-wrap items-center gap-1">
        <Badge>{KIND_LABELS[m.kind]}</Badge>
        <Badge tone={STATUS_TONES[m.status]}>{m.status}</Badge>
        {m.stuck ? <Badge tone="negative">stuck</Badge> : null}
      </span>
      <span className="grid min-w-0 gap-0.5">
        <TxLink hash={m.txHash} href={m.explorerUrl} />
        <span className="text-xs text-ink-muted">
          <code className="font-mono" title={m.fromAddress}>
            {short(m.fromAddress)}
          </code>{" "}
          to{" "}
          <code className="font-mono" title={m.toAddress}>
            {short(m.toAddress)}
          </code>
        </span>
        {note ? <span className="text-xs text-ink-muted">{note}</span> : null}
      </span>
      <span className="text-ink-muted tabular-nums">
        <span className="md:sr-only">Nonce </span>
        {m.nonce ?? "—"}
      </span>
      <span className="text-ink-muted tabular-nums">
        {Math.min(m.confirmations, confirmations)} / {confirmations}
        <span className="md:sr-only"> conf.</span>
      </span>
      <span className="text-ink-muted tabular-nums">
        <span className="md:sr-only">Age </span>
        {age(m.ageSeconds)}
      </span>
    </li>
  );
}

function Alerts({ data }: { data: ChainTreasury }) {
  if (data.alerts.length === 0) return null;
  return (
    <div className="grid gap-2" role="status" aria-label="Treasury alerts">
      {data.alerts.map((a) => (
        <p
          key={a.kind}
          className={`flex items-start gap-2 rounded-lg p-3 text-sm ${
            a.kind === "not_sweepable" ? "bg-canvas text-ink" : "bg-pending-soft text-pending"
          }`}
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {a.message}
        </p>
      ))}
    </div>
  );
}

function Forecast({ data }: { data: ChainTreasury }) {
  const f = data.forecast;
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-3">
      <div className="grid min-w-0 gap-1 rounded-lg border border-line p-4">
        <dt className="text-xs text-ink-muted">Free in the hot wallet</dt>
        <dd className="text-xl font-semibold text-ink tabular-nums">{f.available ?? "—"}</dd>
      </div>
      <div className="grid min-w-0 gap-1 rounded-lg border border-line p-4">
        <dt className="text-xs text-ink-muted">Payouts in the last day</dt>
        <dd className="text-xl font-semibold text-ink tabular-nums">{f.lastDayOutflow}</dd>
      </div>
      <div className="grid min-w-0 gap-1 rounded-lg border border-line p-4">
        <dt className="text-xs text-ink-muted">Lasts at that rate</dt>
        <dd className="text-xl font-semibold text-ink tabular-nums">
          {f.hoursLeft === null ? "—" : `${f.hoursLeft} h`}
        </dd>
      </div>
    </dl>
  );
}

function Policy({ data }: { data: ChainTreasury }) {
  const p = data.policy;
  return (
    <div className="grid min-w-0 gap-1 text-xs text-ink-muted">
      <p>
        {data.sweepsEnabled
          ? `Sweeps: deposit addresses holding ${p.minAmount} or more, their oldest deposit credited at least ${age(p.minAgeSeconds)} before, while gas is at most ${p.maxGasGwei} gwei. ${data.sweepsWaiting} waiting.`
          : "Sweeps are off: DEPOSIT_FACTORY is not set, so deposit addresses are derived from DEPOSIT_XPUB and only its key holder can move what they hold."}
      </p>
      <p>
        {p.ceiling && p.coldWallet ? (
          <>
            Above {p.ceiling} the surplus goes to cold wallet{" "}
            <code className="font-mono break-all">{p.coldWallet}</code>.
          </>
        ) : (
          "No hot-wallet ceiling: nothing goes to cold automatically."
        )}
      </p>
    </div>
  );
}

/** Sweeps, the surplus to cold and returns (decision 060), with the hot wallet's forecast and alerts. */
export function TreasuryCard({ confirmations }: { confirmations: number }) {
  const treasury = useTreasury();
  return (
    <Card>
      <ListHeader
        title="Treasury"
        description="Sweeps from deposit addresses, the surplus to cold, returns to senders"
      />
      <CardContent className="grid gap-4">
        {treasury.isPending ? (
          <ListSkeleton label="Loading the treasury" />
        ) : treasury.isError ? (
          <ListError what="the treasury" onRetry={() => treasury.refetch()} />
        ) : treasury.data.mode === "manual" ? null : (
          <>
            <Alerts data={treasury.data} />
            <Forecast data={treasury.data} />
            <Policy data={treasury.data} />
            {treasury.data.movements.length === 0 ? (
              <ListEmpty
                icon={ArrowRightLeft}
                title="No treasury movements yet"
                text="Sweeps appear here once a deposit address holds enough credited USDC."
              />
            ) : (
              <>
                <div
                  aria-hidden
                  className="hidden gap-4 border-b border-line pb-2 text-xs text-ink-muted md:grid md:grid-cols-[7rem_9rem_1fr_4rem_6rem_4rem]"
                >
                  <span className="text-right">Amount</span>
                  <span>Kind and state</span>
                  <span>Transaction</span>
                  <span>Nonce</span>
                  <span>Confirmations</span>
                  <span>Age</span>
                </div>
                <ul className="divide-y divide-line" aria-label="Treasury movements">
                  {treasury.data.movements.map((m) => (
                    <MovementRow key={m.id} m={m} confirmations={confirmations} />
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
