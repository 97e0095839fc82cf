import { type FormEvent, useId, useState } from "react";
import { mayDecideApproval } from "@/contract/approvals";
import type { SettlementPayout } from "@/contract/settlement";
import { canUse } from "@/contract/staff-capabilities";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { useDecideSettledOutside } from "@/web/features/settlement/admin/api/decide-settled-outside";
import { useProposeSettledOutside } from "@/web/features/settlement/admin/api/propose-settled-outside";
import { TxLink } from "@/web/features/settlement/admin/tx-link";
import { ApiError } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { isStepUpCancelled } from "@/web/lib/step-up";

const errorText = (error: unknown, fallback: string) =>
  error && !isStepUpCancelled(error) ? (error instanceof ApiError ? error.message : fallback) : null;

/** A payout staff may propose as settled outside Pillar: open, not held for compliance, no proposal yet. */
export const mayBeSettledOutside = (p: SettlementPayout) =>
  (p.status === "queued" || p.status === "signed" || p.status === "sent") && p.settledOutside === null;

/** The maker's form: why, and the transaction that paid the customer if there is one (decision 040). */
export function ProposeSettledOutside({ payout }: { payout: SettlementPayout }) {
  const { data: me } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [txHash, setTxHash] = useState("");
  const propose = useProposeSettledOutside();
  const id = useId();
  if (!canUse(me?.staffRoles ?? [], "proposeSettledOutside")) return null;
  if (!open) {
    return (
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Settled outside Pillar…
      </Button>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    propose.mutate({ id: payout.id, reason, txHash: txHash.trim() || null });
  };
  const failed = errorText(propose.error, "Could not send it for approval. Try again.");
  return (
    <form
      onSubmit={onSubmit}
      className="grid w-full gap-2 rounded-lg border border-line p-3 md:col-span-full"
      aria-label={`Record the ${payout.amount} payout as settled outside Pillar`}
    >
      <p className="text-xs text-ink-muted">
        A second finance member approves it; then the transfer completes and Pillar never sends this payout.
      </p>
      <label htmlFor={`${id}-reason`} className="text-xs font-medium text-ink">
        Reason
      </label>
      <Input
        id={`${id}-reason`}
        value={reason}
        maxLength={500}
        required
        onChange={(e) => setReason(e.target.value)}
        placeholder="Paid from the treasury wallet, ticket FIN-12"
      />
      <label htmlFor={`${id}-hash`} className="text-xs font-medium text-ink">
        Transaction hash (if it was paid on chain)
      </label>
      <Input
        id={`${id}-hash`}
        value={txHash}
        onChange={(e) => setTxHash(e.target.value)}
        className="font-mono"
        placeholder="0x…"
        aria-invalid={propose.error instanceof ApiError && propose.error.flags.field === "txHash"}
      />
      {failed ? (
        <p role="alert" className="text-xs text-negative">
          {failed}
        </p>
      ) : null}
      <span className="flex flex-wrap gap-2">
        <Button size="sm" type="submit" disabled={propose.isPending || reason.trim() === ""}>
          {propose.isPending ? "Sending…" : "Send for approval"}
        </Button>
        <Button size="sm" variant="ghost" type="button" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </span>
    </form>
  );
}

/** A pending proposal, with Approve and Reject for a different finance member; or the approved record. */
export function SettledOutsideNote({ payout }: { payout: SettlementPayout }) {
  const { data: me } = useCurrentUser();
  const decide = useDecideSettledOutside();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const id = useId();
  const s = payout.settledOutside;
  if (!s) return null;
  if (s.status === "approved") {
    return (
      <span className="min-w-0 text-xs text-ink-muted [overflow-wrap:anywhere] md:col-span-full">
        Settled outside Pillar · proposed by {s.proposedBy ?? "a deleted staff member"}, approved by{" "}
        {s.approvedBy ?? "a deleted staff member"} · {s.reason}
        {s.txHash ? (
          <>
            {" · "}
            <TxLink hash={s.txHash} href={s.explorerUrl} />
          </>
        ) : null}
      </span>
    );
  }
  const isMaker = me?.email === s.proposedBy;
  const mayDecide = !isMaker && mayDecideApproval(me?.staffRoles ?? [], "payout_settled_outside");
  const failed = errorText(decide.error, "Could not record the decision. Try again.");
  return (
    <section
      aria-label={`Proposal: the ${payout.amount} payout was settled outside Pillar`}
      className="grid min-w-0 gap-2 rounded-lg bg-pending-soft p-3 text-xs text-ink [overflow-wrap:anywhere] md:col-span-full"
    >
      <p>
        <strong className="font-medium">Proposed as settled outside Pillar</strong> by{" "}
        {s.proposedBy ?? "a deleted staff member"}: {s.reason}
        {s.txHash ? (
          <>
            {" · "}
            <TxLink hash={s.txHash} href={s.explorerUrl} />
          </>
        ) : (
          " · no on-chain transaction named"
        )}
        . Pillar does not send this payout while it waits.
      </p>
      {isMaker ? <p className="text-ink-muted">A different finance member approves or rejects it.</p> : null}
      {mayDecide ? (
        <span className="flex flex-wrap items-center gap-2">
          <Button
            size="sm"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ approvalId: s.approvalId, decision: "approve" })}
          >
            Approve
          </Button>
          {rejecting ? (
            <form
              className="flex flex-wrap items-center gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                decide.mutate({ approvalId: s.approvalId, decision: "reject", reason });
              }}
            >
              <label htmlFor={`${id}-reject`} className="sr-only">
                Why it is rejected
              </label>
              <Input
                id={`${id}-reject`}
                value={reason}
                required
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                placeholder="Why it is rejected"
                className="h-8 w-56"
              />
              <Button
                size="sm"
                variant="secondary"
                type="submit"
                disabled={decide.isPending || !reason.trim()}
              >
                Reject
              </Button>
            </form>
          ) : (
            <Button size="sm" variant="secondary" onClick={() => setRejecting(true)}>
              Reject…
            </Button>
          )}
        </span>
      ) : null}
      {failed ? (
        <p role="alert" className="text-negative">
          {failed}
        </p>
      ) : null}
    </section>
  );
}
