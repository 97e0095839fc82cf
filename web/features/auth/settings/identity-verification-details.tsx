import { ArrowRight, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { canApply, type KycStatus } from "@/contract/kyc";
import { LoadError } from "@/web/components/load-error";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useKycStatus } from "@/web/features/kyc/api/get-kyc-status";
import { formatDate } from "@/web/lib/format";

type Tone = NonNullable<BadgeProps["tone"]>;

/** KYC statuses and texts; no record reads 'Not Started'. */
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
    text: "Verify your identity with a government ID to open a checking account. Your SSN is encrypted and never shown in full.",
  },
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5">
      <dt className="shrink-0 text-sm text-ink-muted">{label}</dt>
      <dd className="min-w-0 text-right text-sm font-medium break-words text-ink">{children}</dd>
    </div>
  );
}

/** /settings: Identity Verification — the KYC status badge and the application's details. */
export function IdentityVerificationDetails() {
  // A review may have happened since the last visit: read it fresh whenever Settings opens.
  const status = useKycStatus({ staleTime: 0 });

  let badge: ReactNode = <Skeleton className="h-5 w-20 rounded-full" />;
  let body: ReactNode;
  if (status.isPending) {
    body = (
      <div className="grid gap-3" role="status" aria-label="Loading identity verification">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  } else if (status.isError) {
    badge = null;
    body = <LoadError what="your verification status" onRetry={() => void status.refetch()} />;
  } else {
    const { kyc } = status.data;
    const view = KYC_VIEW[kyc?.status ?? "none"];
    badge = <Badge tone={view.tone}>{view.label}</Badge>;
    body = (
      <div className="grid gap-4">
        <p className="flex items-start gap-2 text-sm text-ink-muted">
          <ShieldCheck className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
          {view.text}
        </p>
        {kyc ? (
          <dl className="divide-y divide-line">
            <Row label="Account type">
              <span className="capitalize">{kyc.accountType}</span>
            </Row>
            {kyc.companyName ? <Row label="Company">{kyc.companyName}</Row> : null}
            <Row label="Name">
              {kyc.firstName} {kyc.lastName}
            </Row>
            <Row label="SSN">
              <span className="tabular-nums">{kyc.ssn}</span>
            </Row>
            <Row label="Submitted">{formatDate(kyc.submittedAt)}</Row>
            {kyc.reviewedAt ? <Row label="Reviewed">{formatDate(kyc.reviewedAt)}</Row> : null}
            {kyc.status === "rejected" && kyc.adminNotes ? <Row label="Reason">{kyc.adminNotes}</Row> : null}
          </dl>
        ) : null}
        {canApply(status.data) ? (
          <Button asChild variant="secondary" className="w-full sm:w-auto sm:justify-self-start">
            <Link href="/apply-checking">
              {kyc ? "Submit New Application" : "Apply Checking Account"}
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        ) : null}
      </div>
    );
  }

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>Identity Verification</CardTitle>
          <CardDescription>Required to open a checking account.</CardDescription>
        </div>
        {badge}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
