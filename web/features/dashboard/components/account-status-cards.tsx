import { AlertCircle, ArrowRight, Eye, EyeOff, Landmark, ShieldCheck } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import type { AccountRequest, AccountRequestStatus, KycStatus } from "@/contract/kyc";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useKycStatus } from "@/web/features/dashboard/api/get-kyc-status";
import { cn } from "@/web/lib/cn";
import { formatDate } from "@/web/lib/format";

type Tone = NonNullable<BadgeProps["tone"]>;

/** Spec §4 KYC statuses and texts; no record reads 'Not Started'. */
const KYC_VIEW: Record<KycStatus | "none", { label: string; tone: Tone; text: string }> = {
  approved: { label: "Verified", tone: "positive", text: "Congratulations! Your account has been approved" },
  rejected: {
    label: "Rejected",
    tone: "negative",
    text: "Your application was not approved. You can submit a new application.",
  },
  pending: {
    label: "Pending Review",
    tone: "pending",
    text: "Your application is under review. Review can take up to 24 hours.",
  },
  none: {
    label: "Not Started",
    tone: "neutral",
    text: "Verify your identity to open your free checking account.",
  },
};

const REQUEST_VIEW: Record<AccountRequestStatus, { label: string; tone: Tone; text: string }> = {
  pending: { label: "Pending", tone: "pending", text: "Your account application is being reviewed" },
  in_review: { label: "In Review", tone: "pending", text: "Your account application is being reviewed" },
  approved: { label: "Approved", tone: "positive", text: "Your checking account is open and ready to use." },
  rejected: {
    label: "Rejected",
    tone: "negative",
    text: "Your application was not approved. You can submit a new application.",
  },
};

function CardSkeleton({ label }: { label: string }) {
  return (
    <Card role="status" aria-label={label}>
      <CardHeader>
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-4 w-56 max-w-full" />
      </CardHeader>
      <CardContent className="grid gap-2">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-9 w-40" />
      </CardContent>
    </Card>
  );
}

function CardError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-3">
        <p className="flex items-start gap-2 text-sm text-negative" role="alert">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          We couldn't load your account status. Check your connection and try again.
        </p>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </CardContent>
    </Card>
  );
}

function StatusHeader({
  icon,
  title,
  badge,
  description,
}: {
  icon: ReactNode;
  title: string;
  badge?: { label: string; tone: Tone };
  description: ReactNode;
}) {
  return (
    <CardHeader className="flex-row items-start gap-3">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        {icon}
      </span>
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <CardTitle>{title}</CardTitle>
          {badge ? <Badge tone={badge.tone}>{badge.label}</Badge> : null}
        </div>
        <CardDescription>{description}</CardDescription>
      </div>
    </CardHeader>
  );
}

/** Account numbers stay masked until asked for; routing numbers are public. */
function AccountNumbers({ request }: { request: AccountRequest }) {
  const [isShown, setShown] = useState(false);
  const number = request.accountNumber ?? "";
  return (
    <dl className="grid gap-3 rounded-lg bg-canvas p-4 sm:grid-cols-2">
      <div className="grid gap-0.5">
        <dt className="text-xs text-ink-muted">Account number</dt>
        <dd className="flex items-center gap-2 text-sm font-medium text-ink tabular-nums">
          <span>{isShown ? number : `•••••${number.slice(-4)}`}</span>
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-pressed={isShown}
            aria-label={isShown ? "Hide account number" : "Show account number"}
            className="rounded p-1 text-ink-subtle hover:text-ink"
          >
            {isShown ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
          </button>
        </dd>
      </div>
      <div className="grid gap-0.5">
        <dt className="text-xs text-ink-muted">Routing number</dt>
        <dd className="py-1 text-sm font-medium text-ink tabular-nums">{request.routingNumber ?? "—"}</dd>
      </div>
    </dl>
  );
}

export interface AccountRequestCardProps {
  /** Dashboard content override for the card title (default 'Account Request Status'). */
  statusTitle?: string;
  /** Dashboard content override for the in-review text (default 'Your account application is being reviewed'). */
  statusMessage?: string;
}

/**
 * Spec §2 dashboard: the account request's status, or 'Checking Account: Not Available' with
 * 'Apply Checking Account'; a rejected request offers 'Submit New Application'. Polls every 10 s.
 */
export function AccountRequestCard({
  statusTitle = "Account Request Status",
  statusMessage,
}: AccountRequestCardProps) {
  const status = useKycStatus();
  if (status.isPending) return <CardSkeleton label="Loading account request" />;
  if (status.isError) return <CardError title={statusTitle} onRetry={() => status.refetch()} />;

  const request = status.data.accountRequest;
  if (!request) {
    return (
      <Card>
        <StatusHeader
          icon={<Landmark className="size-5" aria-hidden />}
          title="Checking Account: Not Available"
          description="Open a free checking account after a quick identity check."
        />
        <CardContent>
          <Button asChild>
            <Link href="/apply-checking">
              Apply Checking Account
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        </CardContent>
      </Card>
    );
  }

  const view = REQUEST_VIEW[request.status];
  const isInReview = request.status === "pending" || request.status === "in_review";
  const text = request.statusMessage || (isInReview && statusMessage ? statusMessage : view.text);
  return (
    <Card>
      <StatusHeader
        icon={<Landmark className="size-5" aria-hidden />}
        title={statusTitle}
        badge={view}
        description={text}
      />
      <CardContent className="grid gap-4">
        {request.status === "approved" && request.accountNumber ? <AccountNumbers request={request} /> : null}
        <p className="text-xs text-ink-subtle">
          <span className="capitalize">{request.accountType}</span> checking · applied{" "}
          {formatDate(request.createdAt)}
          {request.approvedAt ? ` · approved ${formatDate(request.approvedAt)}` : null}
        </p>
        {request.status === "rejected" ? (
          <Button asChild className="justify-self-start">
            <Link href="/apply-checking">
              Submit New Application
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Spec §2/§4 dashboard: the KYC status with its badge and text. Polls every 10 s. */
export function AccountVerificationCard() {
  const status = useKycStatus();
  if (status.isPending) return <CardSkeleton label="Loading account verification" />;
  if (status.isError) return <CardError title="Account Verification" onRetry={() => status.refetch()} />;

  const kyc = status.data.kyc;
  const key = kyc?.status ?? "none";
  const view = KYC_VIEW[key];
  const accountRejected = status.data.accountRequest?.status === "rejected";
  return (
    <Card>
      <StatusHeader
        icon={<ShieldCheck className="size-5" aria-hidden />}
        title="Account Verification"
        badge={view}
        description={view.text}
      />
      <CardContent className="grid gap-4">
        {kyc ? (
          <p className="text-xs text-ink-subtle">
            Submitted {formatDate(kyc.submittedAt)}
            {kyc.reviewedAt ? ` · reviewed ${formatDate(kyc.reviewedAt)}` : null}
          </p>
        ) : null}
        {key === "none" ? (
          <Button asChild variant="secondary" className="justify-self-start">
            <Link href="/apply-checking">Start Verification</Link>
          </Button>
        ) : key === "rejected" && !accountRejected ? (
          // The account request card already offers this link when the request itself was rejected.
          <Button asChild variant="secondary" className="justify-self-start">
            <Link href="/apply-checking">Submit New Application</Link>
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Both status cards side by side (stacked on phones). Props pass through to the account request card. */
export function AccountStatusCards({
  className,
  ...props
}: AccountRequestCardProps & { className?: string }) {
  return (
    <div className={cn("grid gap-6 md:grid-cols-2", className)}>
      <AccountRequestCard {...props} />
      <AccountVerificationCard />
    </div>
  );
}
