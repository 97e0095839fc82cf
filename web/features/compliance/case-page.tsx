import { ArrowLeft } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Link } from "wouter";
import {
  CASE_DECISIONS,
  type CaseDecisionRow,
  COMPLIANCE_MESSAGES,
  type ComplianceCaseDetail,
  type DecisionKind,
  type HeldTransfer,
  isTransferDecision,
  MAX_COMMENT_CHARS,
  MAX_NARRATIVE_CHARS,
  SAR_NARRATIVE_TEMPLATE,
  type ScreeningPoint,
  TRANSFER_DECISIONS,
} from "@/contract/compliance";
import { RULE_LABELS } from "@/contract/monitoring";
import { canUse } from "@/contract/staff-capabilities";
import { transferReference } from "@/contract/transfers";
import { AlertEvidence } from "@/web/components/admin/alert-evidence";
import { LoadErrorNote } from "@/web/components/load-error";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { Input, inputClassName, Textarea } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { LogoMark } from "@/web/components/ui/logo";
import { Skeleton } from "@/web/components/ui/skeleton";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import {
  reportUrl,
  useAssignCase,
  useAttachDocument,
  useCase,
  useCheckDecision,
  useCommentOnCase,
  useComplianceMembers,
  useLinkCustomer,
  useProposeDecision,
  useSaveNarrative,
} from "@/web/features/compliance/api/compliance-queries";
import { CaseStatusBadge, DECISION_LABELS } from "@/web/features/compliance/components/case-status-badge";
import { ReportClock } from "@/web/features/compliance/components/report-clock";
import { SarFiling } from "@/web/features/compliance/components/sar-filing";
import { ScoreParts } from "@/web/features/compliance/components/score-parts";
import { uploadFile } from "@/web/features/kyc/api/upload-file";
import { useAlerts } from "@/web/features/monitoring/api/get-alerts";
import { useCurrentUser } from "@/web/lib/current-user";
import { formatDateTimeWithYear } from "@/web/lib/format";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** Every screening point has a label: a new point fails the typecheck here until it is named. */
const POINTS: Record<ScreeningPoint, string> = {
  signup: "Sign-up",
  kyc: "Identity check",
  recipient: "Saved recipient",
  transfer: "Transfer",
  transfer_approval: "Transfer release",
  payout_signing: "Payout signing",
  rescreen: "Re-screen after a list load",
  deposit: "Incoming deposit",
};
// New York time with its zone, as the SAR PDF prints it (docs/architecture.md "Design notes").
const when = (iso: string) => formatDateTimeWithYear(iso);

/** A result line under a form: read out by screen readers as it changes. */
function Note({ note }: { note: { tone: "ok" | "error"; text: string } | null }) {
  return (
    <p
      role="status"
      aria-live="polite"
      className={note?.tone === "error" ? "text-sm text-negative" : "text-sm text-positive"}
    >
      {note?.text ?? ""}
    </p>
  );
}
type NoteState = { tone: "ok" | "error"; text: string } | null;

/** Runs a mutation and reports its answer in the form's note. */
function useNoted() {
  const [note, setNote] = useState<NoteState>(null);
  const run = <T extends { message: string }>(promise: Promise<T>, after?: () => void) => {
    setNote(null);
    promise.then(
      (res) => {
        setNote({ tone: "ok", text: res.message });
        after?.();
      },
      (err: Error) => setNote({ tone: "error", text: err.message }),
    );
  };
  return { note, setNote, run };
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card aria-labelledby={id} role="region">
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-3">{children}</CardContent>
    </Card>
  );
}

function Summary({ detail }: { detail: ComplianceCaseDetail }) {
  const members = useComplianceMembers();
  const assign = useAssignCase(detail.id);
  const { note, run } = useNoted();
  const selectId = useId();
  return (
    <Section title="Summary">
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-ink-muted">Customer</dt>
          <dd className="text-ink">
            {detail.customer ? (
              <>
                {detail.customer.firstName} {detail.customer.lastName}
                <span className="block break-all text-ink-muted">{detail.customer.email}</span>
              </>
            ) : (
              "Deleted customer"
            )}
          </dd>
        </div>
        <div>
          <dt className="text-ink-muted">Opened</dt>
          <dd className="text-ink">{when(detail.openedAt)}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Held transfers</dt>
          <dd className="tabular-nums text-ink">{detail.heldTransfers}</dd>
        </div>
        {detail.heldDeposits > 0 ? (
          <div>
            <dt className="text-ink-muted">Held deposits</dt>
            <dd className="tabular-nums text-ink">{detail.heldDeposits}</dd>
          </div>
        ) : null}
        <div>
          <dt className="text-ink-muted">Status</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <CaseStatusBadge status={detail.status} />
            <ReportClock dueAt={detail.reportDueAt} status={detail.status} />
          </dd>
        </div>
      </dl>
      <div className="grid gap-1.5 sm:max-w-sm">
        <Label htmlFor={selectId}>Assigned to</Label>
        <select
          id={selectId}
          className={inputClassName}
          value={detail.assignee?.id ?? ""}
          disabled={assign.isPending || members.isPending}
          onChange={(e) => run(assign.mutateAsync(e.target.value || null))}
        >
          <option value="">Unassigned</option>
          {(members.data?.items ?? []).map((m) => (
            <option key={m.id} value={m.id}>
              {m.email}
            </option>
          ))}
        </select>
        <Note note={note} />
      </div>
    </Section>
  );
}

function Evidence({ detail }: { detail: ComplianceCaseDetail }) {
  const alerts = useAlerts(detail.id);
  const alertItems = alerts.data?.items ?? [];
  return (
    <Section
      title="Evidence"
      description="The screening hits and monitoring alerts grouped in this case, oldest first."
    >
      {detail.hits.length > 0 ? (
        <ul aria-label="Screening hits" className="grid gap-3">
          {detail.hits.map((hit) => (
            <li key={hit.id} className="grid gap-0.5 border-l-2 border-line pl-3 text-sm">
              <span className="text-ink">
                <span className="font-medium">{hit.subjectType === "address" ? "Address" : "Name"}</span>{" "}
                <span className="break-all">{hit.subject}</span> matched{" "}
                <span className="break-all">{hit.matched}</span>
              </span>
              <span className="tabular-nums text-ink-muted">
                {POINTS[hit.screeningPoint]} · score {hit.score.toFixed(3)} · {hit.listSource} #{hit.entNum} ·{" "}
                {hit.programs || "no program"} · list v{hit.listVersion} · {when(hit.createdAt)}
              </span>
              {hit.scoreParts ? (
                <ScoreParts
                  parts={hit.scoreParts}
                  label={`Score parts: ${hit.subject} scored ${hit.score.toFixed(3)}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {alerts.isPending ? (
        <Skeleton className="h-12" />
      ) : alerts.isError ? (
        <LoadErrorNote what="the case's alerts" onRetry={() => alerts.refetch()} />
      ) : alertItems.length > 0 ? (
        <>
          <ul aria-label="Monitoring alerts" className="grid gap-3">
            {[...alertItems].reverse().map((alert) => (
              <li key={alert.id} className="grid gap-0.5 border-l-2 border-pending pl-3 text-sm">
                <span className="text-ink">
                  <span className="font-medium">{RULE_LABELS[alert.rule]}</span>
                  {alert.blocking ? " · holds money out" : ""}
                </span>
                <AlertEvidence evidence={alert.evidence} />
                <span className="tabular-nums text-ink-muted">
                  Monitoring alert · score {alert.score.toFixed(2)} · on a {alert.eventKind} ·{" "}
                  {when(alert.createdAt)}
                </span>
              </li>
            ))}
          </ul>
          <Link
            className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            href={`/admin/monitoring?case=${detail.id}`}
          >
            This case's alerts on the alerts page
          </Link>
        </>
      ) : null}
      {detail.hits.length === 0 && !alerts.isPending && alertItems.length === 0 ? (
        <p className="text-sm text-ink-muted">Nothing yet.</p>
      ) : null}
    </Section>
  );
}

/** A YYYY-MM-DD day as "Dec 11, 2026" (a calendar day: no zone may shift it). */
const dayOf = (day: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** The decisions this case takes now: the case's own while it is open or restricted, and a held transfer's. */
function decisionsFor(detail: ComplianceCaseDetail): DecisionKind[] {
  const own: DecisionKind[] =
    detail.status === "open" ? [...CASE_DECISIONS] : detail.status === "restricted" ? ["lift"] : [];
  // Reject or block a held transfer while the case still holds it: every status but cleared (decision 048).
  const transfers = detail.status !== "cleared" && detail.transfers.length > 0 ? [...TRANSFER_DECISIONS] : [];
  return [...own, ...transfers];
}

const transferLine = (t: HeldTransfer) => `${t.formattedAmount} to ${t.recipientName} · ${when(t.createdAt)}`;

function HeldTransfers({
  detail,
  onDecide,
}: {
  detail: ComplianceCaseDetail;
  onDecide: (id: string) => void;
}) {
  const canDecide = detail.status !== "cleared";
  return (
    <Section
      title="Held transfers"
      description="The customer's transfers this case holds. They move only once compliance clears the case; reject gives the money back, block moves it to blocked property. Both are reported to OFAC within 10 business days."
    >
      {detail.transfers.length === 0 ? (
        <p className="text-sm text-ink-muted">No transfer is held.</p>
      ) : (
        <ul aria-label="Held transfers" className="divide-y divide-line rounded-lg border border-line">
          {detail.transfers.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
              <span className="grid min-w-0 gap-0.5">
                <span className="text-ink">
                  <span className="font-medium tabular-nums">−{t.formattedAmount}</span> to {t.recipientName}
                </span>
                <span className="break-all font-mono text-xs text-ink-subtle">{t.cryptoAddress}</span>
                <span className="text-xs text-ink-muted">
                  {t.status === "pending" ? "Pending" : "Processing"} · requested {when(t.createdAt)}
                </span>
              </span>
              {canDecide ? (
                <Button size="sm" variant="secondary" onClick={() => onDecide(t.id)}>
                  Decide this transfer<span className="sr-only">: {transferLine(t)}</span>
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function DecisionHistory({ detail }: { detail: ComplianceCaseDetail }) {
  const transfersById = new Map(detail.transfers.map((t) => [t.id, t]));
  return (
    <ol className="grid gap-2 text-sm">
      {detail.decisions.map((d) => {
        const transfer = d.transferId ? transfersById.get(d.transferId) : undefined;
        return (
          <li key={d.id} className="grid gap-0.5 rounded-lg border border-line p-3">
            <span className="font-medium text-ink">
              {DECISION_LABELS[d.decision]} ·{" "}
              {d.status === "pending"
                ? "awaiting approval"
                : d.status === "approved"
                  ? "approved"
                  : "rejected"}
            </span>
            {transfer ? (
              <span className="text-ink">{transferLine(transfer)}</span>
            ) : d.transferId ? (
              <span className="text-ink">Transfer {transferReference(d.transferId)}</span>
            ) : null}
            {d.reportDueOn ? (
              <span className="font-medium text-ink">OFAC report due {dayOf(d.reportDueOn)}</span>
            ) : null}
            <span className="text-ink">{d.note}</span>
            <span className="text-xs text-ink-muted">
              Proposed by {d.maker?.email ?? "a former member"} on {when(d.createdAt)}
              {d.checker ? ` · ${d.status} by ${d.checker.email ?? "a former member"}` : ""}
              {d.checkerNote ? `: ${d.checkerNote}` : ""}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** The second member's verdict: approving may carry a note, rejecting must say why (the server refuses otherwise). */
function CheckPending({
  detail,
  pending,
  noted: { setNote, run },
}: {
  detail: ComplianceCaseDetail;
  pending: CaseDecisionRow;
  /** The decision's own result line: it outlives this form, which goes once the verdict is in. */
  noted: Pick<ReturnType<typeof useNoted>, "setNote" | "run">;
}) {
  const check = useCheckDecision(detail.id);
  const [text, setText] = useState("");
  const noteId = useId();
  const onReject = () => {
    if (text.trim().length < 3) {
      return setNote({ tone: "error", text: COMPLIANCE_MESSAGES.checkerReasonRequired });
    }
    run(check.mutateAsync({ decisionId: pending.id, verdict: "reject", note: text }), () => setText(""));
  };
  return (
    <div className="grid gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={noteId}>Your note (required to reject)</Label>
        <Textarea
          id={noteId}
          value={text}
          maxLength={2000}
          rows={2}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={check.isPending}
          onClick={() =>
            run(check.mutateAsync({ decisionId: pending.id, verdict: "approve", note: text }), () =>
              setText(""),
            )
          }
        >
          Approve: {DECISION_LABELS[pending.decision]}
        </Button>
        <Button size="sm" variant="secondary" disabled={check.isPending} onClick={onReject}>
          Reject
        </Button>
      </div>
    </div>
  );
}

function Decision({
  detail,
  userId,
  transferId,
  onTransfer,
}: {
  detail: ComplianceCaseDetail;
  userId: string;
  transferId: string;
  onTransfer: (id: string) => void;
}) {
  const propose = useProposeDecision(detail.id);
  // No default: a decision is chosen on purpose, never taken by a stray Enter.
  const [decision, setDecision] = useState<DecisionKind | "">("");
  const options = decisionsFor(detail);
  const [text, setText] = useState("");
  const noted = useNoted();
  const { note, setNote, run } = noted;
  const pending = detail.decisions.find((d) => d.status === "pending");
  const ids = { decision: useId(), transfer: useId(), note: useId() };
  const isTransfer = decision !== "" && isTransferDecision(decision);
  const onPropose = (event: FormEvent) => {
    event.preventDefault();
    if (decision === "") return setNote({ tone: "error", text: "Choose a decision" });
    if (isTransfer && !transferId)
      return setNote({ tone: "error", text: COMPLIANCE_MESSAGES.transferRequired });
    if (text.trim().length < 3) return setNote({ tone: "error", text: COMPLIANCE_MESSAGES.noteRequired });
    run(propose.mutateAsync({ decision, note: text, ...(isTransfer ? { transferId } : {}) }), () => {
      setText("");
      setDecision("");
    });
  };
  return (
    <Section
      title="Decision"
      description="A decision takes effect only when a second compliance member approves it."
    >
      {detail.decisions.length > 0 ? <DecisionHistory detail={detail} /> : null}
      {pending ? (
        pending.maker?.id === userId ? (
          <p className="text-sm text-ink-muted">
            You proposed this decision: a second compliance member must approve or reject it.
          </p>
        ) : (
          <CheckPending key={pending.id} detail={detail} pending={pending} noted={noted} />
        )
      ) : null}
      {!pending && options.length > 0 ? (
        <form id="case-decision" className="grid gap-3" onSubmit={onPropose} noValidate>
          {detail.status === "restricted" ? (
            <p className="text-sm text-ink">
              The customer cannot send money. Propose lifting the restriction: a second member approves it.
            </p>
          ) : null}
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid min-w-0 gap-1.5">
              <Label htmlFor={ids.decision}>Propose</Label>
              <select
                id={ids.decision}
                className={inputClassName}
                value={decision}
                required
                onChange={(e) => setDecision(e.target.value as DecisionKind | "")}
              >
                <option value="" disabled>
                  Choose a decision
                </option>
                {options.map((d) => (
                  <option key={d} value={d}>
                    {DECISION_LABELS[d]}
                  </option>
                ))}
              </select>
            </div>
            {isTransfer ? (
              <div className="grid min-w-0 gap-1.5">
                <Label htmlFor={ids.transfer}>Transfer</Label>
                <select
                  id={ids.transfer}
                  className={inputClassName}
                  value={transferId}
                  required
                  onChange={(e) => onTransfer(e.target.value)}
                >
                  <option value="" disabled>
                    Choose the transfer
                  </option>
                  {detail.transfers.map((t) => (
                    <option key={t.id} value={t.id}>
                      {transferLine(t)}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.note}>Why</Label>
            <Textarea
              id={ids.note}
              value={text}
              maxLength={2000}
              rows={3}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <div>
            <Button type="submit" size="sm" disabled={propose.isPending}>
              Propose decision
            </Button>
          </div>
        </form>
      ) : null}
      {detail.status !== "open" && detail.decisionNote ? (
        <p className="text-sm text-ink-muted">Decided {detail.decidedAt ? when(detail.decidedAt) : ""}.</p>
      ) : null}
      <Note note={note} />
    </Section>
  );
}

function Comments({ detail }: { detail: ComplianceCaseDetail }) {
  const comment = useCommentOnCase(detail.id);
  const [body, setBody] = useState("");
  const { note, run } = useNoted();
  const id = useId();
  return (
    <Section title="Comments" description="Compliance's working notes; the customer never sees them.">
      {detail.comments.length === 0 ? <p className="text-sm text-ink-muted">No comments yet.</p> : null}
      <ul className="grid gap-2">
        {detail.comments.map((c) => (
          <li key={c.id} className="grid gap-0.5 text-sm">
            <span className="whitespace-pre-wrap break-words text-ink">{c.body}</span>
            <span className="text-xs text-ink-muted">
              {c.author?.email ?? "A former member"} · {when(c.createdAt)}
            </span>
          </li>
        ))}
      </ul>
      <form
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          run(comment.mutateAsync(body), () => setBody(""));
        }}
      >
        <Label htmlFor={id}>Add a comment</Label>
        <Textarea
          id={id}
          value={body}
          maxLength={MAX_COMMENT_CHARS}
          rows={2}
          onChange={(e) => setBody(e.target.value)}
        />
        <div>
          <Button type="submit" size="sm" variant="secondary" disabled={comment.isPending || !body.trim()}>
            Add comment
          </Button>
        </div>
        <Note note={note} />
      </form>
    </Section>
  );
}

function Documents({ detail }: { detail: ComplianceCaseDetail }) {
  const attach = useAttachDocument(detail.id);
  const [title, setTitle] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const { note, setNote, run } = useNoted();
  const titleId = useId();
  const fileId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !title.trim()) return setNote({ tone: "error", text: "Choose a file and give it a title." });
    setBusy(true);
    uploadFile(file)
      .then((documentUrl) => run(attach.mutateAsync({ documentUrl, title }), () => setTitle("")))
      .catch((err: Error) => setNote({ tone: "error", text: err.message }))
      .finally(() => setBusy(false));
  };
  return (
    <Section
      title="Documents"
      description="Images or PDFs up to 10 MB, the same checks as identity documents."
    >
      {detail.documents.length === 0 ? (
        <p className="text-sm text-ink-muted">No documents attached.</p>
      ) : null}
      <ul className="grid gap-2">
        {detail.documents.map((d) => (
          <li key={d.id} className="flex flex-wrap items-center gap-2 text-sm">
            <a
              className="text-brand-600 underline-offset-4 hover:underline"
              href={d.url}
              target="_blank"
              rel="noreferrer"
            >
              {d.title}
            </a>
            <span className="text-xs text-ink-muted">
              {d.addedBy?.email ?? "A former member"} · {when(d.createdAt)}
            </span>
          </li>
        ))}
      </ul>
      <form className="grid gap-2 sm:grid-cols-2" onSubmit={onSubmit}>
        <div className="grid gap-1.5">
          <Label htmlFor={titleId}>Title</Label>
          <Input id={titleId} value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={fileId}>File</Label>
          <Input
            id={fileId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,application/pdf"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" variant="secondary" disabled={busy || attach.isPending}>
            Attach document
          </Button>
        </div>
        <div className="sm:col-span-2">
          <Note note={note} />
        </div>
      </form>
    </Section>
  );
}

function Links({ detail }: { detail: ComplianceCaseDetail }) {
  const link = useLinkCustomer(detail.id);
  const [customer, setCustomer] = useState("");
  const [text, setText] = useState("");
  const { note, run } = useNoted();
  const customerId = useId();
  const noteId = useId();
  return (
    <Section title="Related customers">
      {detail.links.length === 0 ? <p className="text-sm text-ink-muted">No customers linked.</p> : null}
      <ul className="grid gap-2">
        {detail.links.map((l) => (
          <li key={l.customer.id} className="grid gap-0.5 text-sm">
            <span className="break-all text-ink">
              {l.customer.firstName} {l.customer.lastName} · {l.customer.email}
            </span>
            <span className="text-xs text-ink-muted">{l.note}</span>
          </li>
        ))}
      </ul>
      <form
        className="grid gap-2 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          run(link.mutateAsync({ customer, note: text }), () => {
            setCustomer("");
            setText("");
          });
        }}
      >
        <div className="grid gap-1.5">
          <Label htmlFor={customerId}>Customer's e-mail or id</Label>
          <Input
            id={customerId}
            value={customer}
            maxLength={320}
            onChange={(e) => setCustomer(e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={noteId}>How they are related</Label>
          <Input id={noteId} value={text} maxLength={500} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" variant="secondary" disabled={link.isPending}>
            Link customer
          </Button>
        </div>
        <div className="sm:col-span-2">
          <Note note={note} />
        </div>
      </form>
    </Section>
  );
}

function Report({ detail }: { detail: ComplianceCaseDetail }) {
  const save = useSaveNarrative(detail.id);
  const [narrative, setNarrative] = useState(detail.narrative);
  const { note, run } = useNoted();
  const id = useId();
  return (
    <Section
      title="Report draft"
      description="A SAR-style draft: subject, amounts, dates, the evidence above and this narrative."
    >
      <div className="grid gap-1.5">
        <Label htmlFor={id}>Narrative</Label>
        <Textarea
          id={id}
          value={narrative}
          rows={6}
          maxLength={MAX_NARRATIVE_CHARS}
          readOnly={detail.status !== "open"}
          onChange={(e) => setNarrative(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        {detail.status === "open" ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={save.isPending}
            onClick={() => run(save.mutateAsync(narrative))}
          >
            Save narrative
          </Button>
        ) : null}
        {detail.status === "open" && narrative.trim() === "" ? (
          <Button size="sm" variant="ghost" onClick={() => setNarrative(SAR_NARRATIVE_TEMPLATE)}>
            Start from the who/what/when/where/why/how template
          </Button>
        ) : null}
        <Button asChild size="sm" variant="secondary">
          <a href={reportUrl(detail.id, "pdf")} download>
            Download PDF
          </a>
        </Button>
        <Button asChild size="sm" variant="secondary">
          <a href={reportUrl(detail.id, "json")} download>
            Download JSON
          </a>
        </Button>
      </div>
      <Note note={note} />
    </Section>
  );
}

/** /admin/compliance/cases/:id: one case, its evidence and every step compliance can take on it. */
export function CasePage({ id }: { id: string }) {
  const { data: user, isPending } = useCurrentUser();
  const allowed = canUse(user?.staffRoles ?? [], "complianceDesk");
  const detail = useCase(allowed ? id : null);
  const name = detail.data?.customer
    ? `${detail.data.customer.firstName} ${detail.data.customer.lastName}`
    : "Compliance case";
  useDocumentTitle(`Case · ${name}`);
  // The held transfer a reject or block will name: chosen in the form, or from its row in Held transfers.
  const [transferId, setTransferId] = useState("");
  const chooseTransfer = (id: string) => {
    setTransferId(id);
    // On to the decision form: its first field is what to propose about the chosen transfer.
    const field = document.querySelector<HTMLSelectElement>("#case-decision select");
    field?.scrollIntoView({ block: "center" });
    field?.focus();
  };
  if (isPending) return <FullScreenSpinner />;
  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">{name}</h1>
              <p className="hidden truncate text-xs text-ink-muted sm:block">Compliance case</p>
            </div>
          </div>
          <Button asChild variant="secondary" size="sm">
            <Link href="/admin/compliance">
              <ArrowLeft aria-hidden />
              <span className="hidden sm:inline">Back to cases</span>
              <span className="sm:hidden">Back</span>
            </Link>
          </Button>
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          {!allowed ? (
            <p className="text-sm text-ink-muted">Your staff role does not include compliance.</p>
          ) : detail.isPending ? (
            <Skeleton className="h-48" />
          ) : detail.isError ? (
            <LoadErrorNote what="the case" onRetry={() => detail.refetch()} />
          ) : (
            <>
              <Summary detail={detail.data} />
              <HeldTransfers detail={detail.data} onDecide={chooseTransfer} />
              <Decision
                detail={detail.data}
                userId={user?.id ?? ""}
                transferId={transferId}
                onTransfer={setTransferId}
              />
              <Evidence detail={detail.data} />
              <Comments detail={detail.data} />
              <Documents detail={detail.data} />
              <Links detail={detail.data} />
              <SarFiling key={`sar-${detail.data.status}`} detail={detail.data} />
              <Report key={detail.data.status} detail={detail.data} />
            </>
          )}
        </Container>
      </main>
    </div>
  );
}
