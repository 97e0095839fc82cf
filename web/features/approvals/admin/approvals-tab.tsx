import { ArrowRight, Check, ClipboardCheck, X } from "lucide-react";
import { useState } from "react";
import {
  APPROVAL_CHECKER_ROLES,
  APPROVAL_KIND_LABELS,
  APPROVAL_STATUSES,
  type Approval,
  type ApprovalStatus,
  CREDIT_WINDOW_HOURS,
  formatAge,
  mayDecideApproval,
  type RiskSignals,
} from "@/contract/approvals";
import { formatMoney } from "@/contract/money";
import { STAFF_ROLE_LABELS } from "@/contract/staff";
import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
import { StatusSelect } from "@/web/components/admin/list-controls";
import { ListHeader, ListStates } from "@/web/components/admin/list-states";
import { ConfirmButton } from "@/web/components/confirm-button";
import { errorMessage } from "@/web/components/toast-error";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useDecideApproval } from "@/web/features/approvals/admin/api/decide-approval";
import { useApprovals } from "@/web/features/approvals/admin/api/get-approvals";
import { useCurrentUser } from "@/web/lib/current-user";
import { isStepUpCancelled } from "@/web/lib/step-up";

type Filter = ApprovalStatus | "all";
const FILTERS = ["pending", "all", ...APPROVAL_STATUSES.filter((s) => s !== "pending")] as const;
const FILTER_LABELS: Record<Filter, string> = {
  pending: "Pending",
  all: "All requests",
  approved: "Approved",
  rejected: "Rejected",
};
const STATUS_BADGES: Record<ApprovalStatus, { label: string; tone: BadgeProps["tone"] }> = {
  pending: { label: "Pending", tone: "pending" },
  approved: { label: "Approved", tone: "positive" },
  rejected: { label: "Rejected", tone: "negative" },
};

interface Chip {
  label: string;
  tone: BadgeProps["tone"];
}

/** "3× largest past credit ($500.00)"; a ratio that rounds to 0 reads "Under 0.1×", never "0×". */
function comparedWithLargest(ratio: number, largestCents: number): string {
  const times = ratio < 0.1 ? "Under 0.1×" : `${ratio}×`;
  return `${times} largest past credit (${formatMoney(largestCents)})`;
}

/** The risk signals as chips: amber or red when they call for a closer look, grey when reassuring. */
export function riskChips(
  kind: Approval["kind"],
  amountCents: number | null,
  risk: RiskSignals | null,
): Chip[] {
  if (!risk) return [{ label: "Customer deleted", tone: "negative" }];
  const chips: Chip[] = [];
  const age = risk.accountAgeDays ?? 0;
  chips.push(
    age < 30
      ? { label: `New account · ${age === 0 ? "today" : `${age} d`}`, tone: "pending" }
      : { label: `Account ${age} d old`, tone: "neutral" },
  );
  if (risk.newDevices7d > 0)
    chips.push({
      label: `New device in 7 d${risk.newDevices7d > 1 ? ` (${risk.newDevices7d})` : ""}`,
      tone: "pending",
    });
  if (risk.firstTimeAddresses7d > 0)
    chips.push({
      label: `Sent to ${risk.firstTimeAddresses7d} new address${risk.firstTimeAddresses7d > 1 ? "es" : ""} in 7 d`,
      tone: "pending",
    });
  const isMoney = kind === "incoming_payment" || kind === "credit" || kind === "balance_adjustment";
  if (isMoney && amountCents !== null && amountCents > 0) {
    const largest = risk.largestCreditCents ?? 0;
    if (risk.creditCount === 0 || largest <= 0) chips.push({ label: "First credit ever", tone: "pending" });
    else if (risk.amountVsLargest !== null)
      chips.push({
        label: comparedWithLargest(risk.amountVsLargest, largest),
        tone: risk.amountVsLargest >= 3 ? "pending" : "neutral",
      });
  }
  if (risk.frozen) chips.push({ label: "Account frozen", tone: "negative" });
  if (risk.kycRejected) chips.push({ label: "KYC rejected", tone: "negative" });
  return chips;
}

/** "balance: $10.00" style text for the before/after snapshot the maker saw. */
function describeState(state: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(state)) {
    if (key === "balance" && typeof value === "number") parts.push(`Balance ${formatMoney(value)}`);
    else if (key === "frozenAt") parts.push(value ? "Frozen" : "Not frozen");
    else if (key === "kycStatus") parts.push(`KYC ${String(value)}`);
    else if (key === "transferStatus") parts.push(`Transfer ${String(value)}`);
    else if (key === "flagged" && value === true) parts.push("Reported by the customer");
    else if (key === "paymentStatus" || key === "creditStatus")
      parts.push(value ? `Status ${String(value).replace("_", " ")}` : "Not created yet");
  }
  return parts.join(" · ") || "—";
}

/** Who decides instead of buttons the server would refuse: the maker never, others by the kind's role. */
export function WhoDecides({ approval, isMaker }: { approval: Approval; isMaker: boolean }) {
  const roles = [...APPROVAL_CHECKER_ROLES[approval.kind], "owner" as const]
    .map((role) => STAFF_ROLE_LABELS[role])
    .join(" or ");
  return (
    <p className="text-xs text-ink-muted">
      {isMaker
        ? `You asked for this: another staff member (${roles}) approves or rejects it.`
        : `Only ${roles} staff may approve or reject this.`}
    </p>
  );
}

function Decision({ approval }: { approval: Approval }) {
  const decide = useDecideApproval();
  const { data: me } = useCurrentUser();
  const onFailed = (error: unknown) => {
    // Closing "Verify it's you" is the checker's own choice: nothing to report.
    if (handleAdminSessionExpired(error) || isStepUpCancelled(error)) return false;
    toast({
      title: "Could not decide",
      description: errorMessage(error, "Please try again"),
      variant: "destructive",
    });
    return false;
  };
  if (approval.status !== "pending") {
    return approval.checker ? (
      <p className="text-xs text-ink-muted">
        {STATUS_BADGES[approval.status].label} by {STAFF_ROLE_LABELS[approval.checker.role]}
        {approval.decisionReason ? `: “${approval.decisionReason}”` : ""}
      </p>
    ) : null;
  }
  const isMaker = me?.id === approval.maker.id;
  if (isMaker || !mayDecideApproval(me?.staffRoles ?? [], approval.kind)) {
    return <WhoDecides approval={approval} isMaker={isMaker} />;
  }
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        size="sm"
        disabled={decide.isPending}
        aria-label={`Approve: ${approval.summary}`}
        onClick={() =>
          decide
            .mutateAsync({ id: approval.id, decision: "approve" })
            .then((done) => toast({ title: "Approved", description: done.message }), onFailed)
        }
      >
        {decide.isPending ? (
          <Spinner className="size-4 text-white" label="Approving" />
        ) : (
          <Check aria-hidden />
        )}
        Approve
      </Button>
      <ConfirmButton
        variant="secondary"
        size="sm"
        className="text-negative"
        isPending={decide.isPending}
        title="Reject this request?"
        description={`${approval.summary}. Nothing changes for the customer; the requester sees your reason.`}
        reason={{
          id: `reject-approval-${approval.id}`,
          label: "Reason for rejecting",
          hint: "Required. The staff member who asked sees it.",
        }}
        confirmLabel="Reject request"
        destructive
        onConfirm={(reason) =>
          decide.mutateAsync({ id: approval.id, decision: "reject", reason }).then((done) => {
            toast({ title: "Rejected", description: done.message });
            return true;
          }, onFailed)
        }
      >
        <X aria-hidden />
        Reject
      </ConfirmButton>
    </div>
  );
}

function ApprovalRow({ approval }: { approval: Approval }) {
  const customer = approval.user
    ? `${approval.user.firstName} ${approval.user.lastName}`
    : "Deleted customer";
  const badge = STATUS_BADGES[approval.status];
  return (
    <li className="grid gap-3 py-5" aria-label={`${APPROVAL_KIND_LABELS[approval.kind]} for ${customer}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="brand">{APPROVAL_KIND_LABELS[approval.kind]}</Badge>
            <Badge tone={badge.tone}>{badge.label}</Badge>
            <span className="text-xs text-ink-muted">
              {approval.ageSeconds < 60 ? "just now" : `${formatAge(approval.ageSeconds)} ago`}
            </span>
          </div>
          <p className="text-sm font-medium text-ink">{approval.summary}</p>
          <p className="truncate text-xs text-ink-muted">
            {customer}
            {approval.user ? ` · ${approval.user.email}` : ""}
          </p>
        </div>
        {approval.amountCents !== null ? (
          <p className="text-right text-base font-semibold text-ink tabular-nums">
            {approval.amountCents < 0 ? "-" : "+"}
            {formatMoney(Math.abs(approval.amountCents))}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col gap-1 rounded-md bg-canvas px-3 py-2 text-xs text-ink sm:flex-row sm:items-center sm:gap-2">
        <span className="text-ink-muted">{describeState(approval.before)}</span>
        <ArrowRight className="hidden size-3.5 shrink-0 text-ink-subtle sm:block" aria-label="becomes" />
        <span className="font-medium">{describeState(approval.after)}</span>
      </div>
      <p className="text-sm text-ink">
        <span className="text-ink-muted">
          Asked by {STAFF_ROLE_LABELS[approval.maker.role]}
          {approval.maker.email ? ` (${approval.maker.email})` : ""}:
        </span>{" "}
        “{approval.reason}”
      </p>
      {approval.creditWindow ? (
        <p className="text-xs text-ink-muted tabular-nums">
          Last {CREDIT_WINDOW_HOURS} h, this one included:{" "}
          <span className="font-medium text-ink">{formatMoney(approval.creditWindow.customerCents)}</span> to
          this customer ·{" "}
          <span className="font-medium text-ink">{formatMoney(approval.creditWindow.makerCents)}</span> by the
          requester
        </p>
      ) : null}
      <ul className="flex flex-wrap gap-1.5" aria-label="Risk signals">
        {riskChips(approval.kind, approval.amountCents, approval.riskSignals).map((chip) => (
          <li key={chip.label}>
            <Badge tone={chip.tone}>{chip.label}</Badge>
          </li>
        ))}
      </ul>
      <Decision approval={approval} />
    </li>
  );
}

/**
 * Maker-checker queue: changes a staff member asked for that wait for a second one (finance for money,
 * compliance for KYC resets and freezes; the server checks who may decide each).
 */
export default function ApprovalsTab() {
  const [status, setStatus] = useState<Filter>("pending");
  const { query, items } = useApprovals({ q: "", status });
  return (
    <Card>
      <ListHeader
        title="Approvals"
        description="Changes another staff member asked for. Nothing moves until someone else approves."
        action={
          <StatusSelect
            id="admin-approval-status"
            label="Show approvals"
            options={FILTERS}
            labelOf={(f) => FILTER_LABELS[f]}
            value={status}
            onChange={setStatus}
          />
        }
      />
      <CardContent className="grid gap-4">
        <ListStates
          query={query}
          items={items}
          what="approvals"
          loadingLabel="Loading approvals"
          empty={{
            icon: ClipboardCheck,
            title: status === "pending" ? "Nothing waiting for approval" : "No approvals here",
            text: "Large credits, balance adjustments, KYC resets and lifted freezes appear here for a second person.",
          }}
          listClassName="-my-5"
          row={(a) => <ApprovalRow key={a.id} approval={a} />}
        />
      </CardContent>
    </Card>
  );
}
