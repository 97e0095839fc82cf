import { useState } from "react";
import type { CaseDecision, ComplianceCase } from "@/contract/compliance";
import { COMPLIANCE_MESSAGES } from "@/contract/compliance";
import { LoadErrorNote } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useCase, useCases, useDecideCase } from "@/web/features/compliance/api/compliance-queries";

const POINTS: Record<string, string> = {
  signup: "Sign-up",
  kyc: "Identity check",
  recipient: "Saved recipient",
  transfer: "Transfer",
  transfer_approval: "Transfer release",
  payout_signing: "Payout signing",
  rescreen: "Re-screen after a list load",
};
const when = (iso: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(new Date(iso));

function StatusBadge({ status }: { status: ComplianceCase["status"] }) {
  if (status === "open") return <Badge tone="pending">Open</Badge>;
  if (status === "cleared") return <Badge tone="positive">Cleared</Badge>;
  return <Badge tone="negative">Confirmed match</Badge>;
}

function CaseDetail({ id, canDecide }: { id: string; canDecide: boolean }) {
  const detail = useCase(id);
  const decide = useDecideCase();
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (detail.isPending) return <Skeleton className="h-24" />;
  if (detail.isError) return <LoadErrorNote what="the case" onRetry={() => detail.refetch()} />;
  const onDecide = (decision: CaseDecision) => {
    if (note.trim().length < 3) return setError(COMPLIANCE_MESSAGES.noteRequired);
    setError(null);
    decide.mutateAsync({ id, decision, note }).then(
      () => setNote(""),
      (err: Error) => setError(err.message),
    );
  };
  return (
    <div className="grid gap-3 border-t border-line bg-canvas px-4 py-3">
      <ul className="grid gap-2">
        {detail.data.hits.map((hit) => (
          <li key={hit.id} className="grid gap-0.5 text-sm">
            <span className="text-ink">
              <span className="font-medium">{hit.subjectType === "address" ? "Address" : "Name"}</span>{" "}
              <span className="break-all">{hit.subject}</span> matched{" "}
              <span className="break-all">{hit.matched}</span>
            </span>
            <span className="tabular-nums text-ink-muted">
              {POINTS[hit.screeningPoint] ?? hit.screeningPoint} · score {hit.score.toFixed(3)} ·{" "}
              {hit.listSource} #{hit.entNum} · {hit.programs} · list v{hit.listVersion}
            </span>
          </li>
        ))}
      </ul>
      {detail.data.status === "open" && canDecide ? (
        <div className="grid gap-2">
          <label className="text-sm font-medium text-ink" htmlFor={`note-${id}`}>
            Decision note
          </label>
          <textarea
            id={`note-${id}`}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            rows={2}
            maxLength={2000}
            className="rounded-md border border-line bg-surface px-3 py-2 text-sm text-ink"
          />
          {error ? <p className="text-sm text-negative">{error}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="secondary"
              disabled={decide.isPending}
              onClick={() => onDecide("clear")}
            >
              Clear (false positive)
            </Button>
            <Button
              size="sm"
              variant="destructive"
              disabled={decide.isPending}
              onClick={() => onDecide("confirm")}
            >
              Confirm match
            </Button>
          </div>
        </div>
      ) : detail.data.decisionNote ? (
        <p className="text-sm text-ink-muted">Decision: {detail.data.decisionNote}</p>
      ) : null}
    </div>
  );
}

/** The cases sanctions hits opened: open ones first by default; each opens to its hits and the decision. */
export function CaseQueue({ canDecide }: { canDecide: boolean }) {
  const [status, setStatus] = useState<"open" | "all">("open");
  const cases = useCases(status);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>Cases</CardTitle>
          <CardDescription>
            One per customer. While a case is open the customer's transfers stay held and "under review".
          </CardDescription>
        </div>
        <fieldset className="flex gap-1" aria-label="Which cases">
          {(["open", "all"] as const).map((s) => (
            <Button
              key={s}
              size="sm"
              variant={status === s ? "primary" : "ghost"}
              aria-pressed={status === s}
              onClick={() => setStatus(s)}
            >
              {s === "open" ? "Open" : "All"}
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent>
        {cases.isPending ? (
          <Skeleton className="h-24" />
        ) : cases.isError ? (
          <LoadErrorNote what="the cases" onRetry={() => cases.refetch()} />
        ) : cases.data.items.length === 0 ? (
          <p className="text-sm text-ink-muted">{status === "open" ? "No open cases." : "No cases yet."}</p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line">
            {cases.data.items.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  aria-expanded={openId === c.id}
                  onClick={() => setOpenId(openId === c.id ? null : c.id)}
                  className="flex w-full flex-wrap items-center justify-between gap-2 px-4 py-3 text-left hover:bg-canvas"
                >
                  <span className="grid gap-0.5">
                    <span className="font-medium text-ink">
                      {c.customer ? `${c.customer.firstName} ${c.customer.lastName}` : "Deleted customer"}
                    </span>
                    <span className="text-xs text-ink-muted">{c.customer?.email}</span>
                  </span>
                  <span className="flex items-center gap-3 text-sm tabular-nums text-ink-muted">
                    {c.hitCount} {c.hitCount === 1 ? "hit" : "hits"} · {c.heldTransfers} held · opened{" "}
                    {when(c.openedAt)}
                    <StatusBadge status={c.status} />
                  </span>
                </button>
                {openId === c.id ? <CaseDetail id={c.id} canDecide={canDecide} /> : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
