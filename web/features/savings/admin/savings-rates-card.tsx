import { BadgePercent } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { parseApyBps, SAVINGS_RATE_MESSAGES, type SavingsRateRow } from "@/contract/savings-admin";
import { canUse } from "@/contract/staff-capabilities";
import { useOpenAdminTab } from "@/web/components/admin/admin-tab-context";
import { ListEmpty, ListError, ListHeader, ListSkeleton } from "@/web/components/admin/list-states";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { useSavingsRates } from "@/web/features/savings/admin/api/get-savings-rates";
import { useProposeSavingsRate } from "@/web/features/savings/admin/api/propose-savings-rate";
import { ApiError } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { isStepUpCancelled } from "@/web/lib/step-up";

const STATUS_TONES: Record<SavingsRateRow["status"], BadgeProps["tone"]> = {
  proposed: "pending",
  approved: "positive",
  rejected: "negative",
};
const STATUS_LABELS: Record<SavingsRateRow["status"], string> = {
  proposed: "waiting for approval",
  approved: "approved",
  rejected: "rejected",
};

const who = (person: SavingsRateRow["proposedBy"]) => person?.email ?? (person ? "former staff" : "—");

/** The day after `day` (YYYY-MM-DD): the first an owner may propose. */
function dayAfter(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The owner's form: a new APY from a future New York day, sent for a second member's approval. */
function ProposeRateForm({ today }: { today: string }) {
  const id = useId();
  const [apy, setApy] = useState("");
  const [effectiveOn, setEffectiveOn] = useState("");
  const [reason, setReason] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const propose = useProposeSavingsRate();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const apyBps = parseApyBps(apy);
    if (apyBps === null || apyBps <= 0 || apyBps > 2000) return setInvalid(SAVINGS_RATE_MESSAGES.apyInvalid);
    if (effectiveOn <= today) return setInvalid(SAVINGS_RATE_MESSAGES.effectiveNotFuture);
    setInvalid(null);
    propose.mutate(
      { apyBps, effectiveOn, reason: reason.trim() },
      {
        onSuccess: () => {
          setApy("");
          setEffectiveOn("");
          setReason("");
        },
      },
    );
  };
  const failed =
    invalid ??
    (propose.error && !isStepUpCancelled(propose.error)
      ? propose.error instanceof ApiError
        ? propose.error.message
        : "Could not send it for approval. Try again."
      : null);
  return (
    <form
      onSubmit={onSubmit}
      aria-label="Propose a new savings rate"
      className="grid gap-3 rounded-lg border border-line p-4"
    >
      <p className="text-sm font-medium text-ink">Propose a new rate</p>
      <p className="text-xs text-ink-muted">
        It starts on a future New York day, never today: interest already accrued keeps its rate. A second
        finance member or owner approves it; then every customer with savings is told.
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1">
          <label htmlFor={`${id}-apy`} className="text-xs font-medium text-ink">
            APY (%)
          </label>
          <Input
            id={`${id}-apy`}
            inputMode="decimal"
            value={apy}
            required
            placeholder="2.75"
            onChange={(e) => setApy(e.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <label htmlFor={`${id}-day`} className="text-xs font-medium text-ink">
            Effective from
          </label>
          <Input
            id={`${id}-day`}
            type="date"
            min={dayAfter(today)}
            value={effectiveOn}
            required
            onChange={(e) => setEffectiveOn(e.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <label htmlFor={`${id}-reason`} className="text-xs font-medium text-ink">
            Reason
          </label>
          <Input
            id={`${id}-reason`}
            value={reason}
            maxLength={500}
            required
            placeholder="Fed funds cut, ALCO minutes 2026-11"
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
      </div>
      <span className="flex flex-wrap items-center gap-3">
        <Button size="sm" type="submit" disabled={propose.isPending}>
          {propose.isPending ? "Sending…" : "Send for approval"}
        </Button>
        <span role="status" className="text-xs text-ink-muted empty:hidden">
          {propose.isSuccess ? "Sent for approval: nothing changes until a second member approves it." : null}
        </span>
      </span>
      <span role="alert" className="text-xs text-negative empty:hidden">
        {failed}
      </span>
    </form>
  );
}

function RateRow({ rate, onApprovals }: { rate: SavingsRateRow; onApprovals: (() => void) | null }) {
  // Set by the migrations, not by staff: no one proposed or approved it.
  const opening = rate.status === "approved" && rate.proposedBy === null && rate.approvalId === null;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3 text-sm md:grid md:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1fr)_auto] md:gap-4">
      <span className="text-ink tabular-nums">
        <span className="font-medium">{rate.apy}</span> from {rate.effectiveOn}
      </span>
      <span className="min-w-0 truncate text-xs text-ink-muted">
        {opening ? "The opening rate" : `Proposed by ${who(rate.proposedBy)}`}
        {rate.previousApy ? ` · was ${rate.previousApy}` : ""}
      </span>
      <span className="flex flex-wrap items-center gap-1">
        <Badge tone={STATUS_TONES[rate.status]}>{STATUS_LABELS[rate.status]}</Badge>
        {rate.notice === "sending" ? <Badge tone="pending">telling customers</Badge> : null}
        {rate.notice === "done" ? <Badge>customers told</Badge> : null}
      </span>
      <span className="min-w-0 truncate text-xs text-ink-muted">
        {rate.status === "proposed" ? (
          onApprovals ? (
            <Button size="sm" variant="link" className="h-auto p-0 text-xs" onClick={onApprovals}>
              Waiting in Approvals
            </Button>
          ) : (
            "Waiting for a second member"
          )
        ) : opening ? (
          "Advertised from the start"
        ) : (
          `${rate.status === "approved" ? "Approved" : "Rejected"} by ${who(rate.decidedBy)}`
        )}
      </span>
    </li>
  );
}

/** The savings APY: in force today, every rate proposed with who proposed and decided it, and the owner's form. */
export function SavingsRatesCard() {
  const rates = useSavingsRates();
  const { data: me } = useCurrentUser();
  const openTab = useOpenAdminTab();
  const roles = me?.staffRoles ?? [];
  const onApprovals = openTab && canUse(roles, "approvalsTab") ? () => openTab("approvals") : null;
  return (
    <Card>
      <ListHeader
        title="Savings rate"
        description={
          rates.data
            ? `${rates.data.current.apy} APY today (variable). A change applies from its day on.`
            : "The APY in force and its history"
        }
      />
      <CardContent className="grid gap-4">
        {rates.isPending ? (
          <ListSkeleton label="Loading the savings rates" />
        ) : rates.isError ? (
          <ListError what="savings rates" onRetry={() => rates.refetch()} />
        ) : (
          <>
            {canUse(roles, "proposeSavingsRate") ? <ProposeRateForm today={rates.data.today} /> : null}
            {rates.data.rates.length === 0 ? (
              <ListEmpty
                icon={BadgePercent}
                title="No rates yet"
                text="Run the migrations: 2.50% is the opening rate."
              />
            ) : (
              <>
                <div
                  aria-hidden
                  className="hidden gap-4 border-b border-line pb-2 text-xs text-ink-muted md:grid md:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1fr)_auto]"
                >
                  <span>APY and its first day</span>
                  <span>Proposed</span>
                  <span>Status</span>
                  <span>Decided</span>
                </div>
                <ul className="divide-y divide-line" aria-label="Savings rate history">
                  {rates.data.rates.map((rate) => (
                    <RateRow key={rate.id} rate={rate} onApprovals={onApprovals} />
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
