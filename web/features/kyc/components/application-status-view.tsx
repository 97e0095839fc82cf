import { ArrowLeft, CheckCircle2, Clock } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import type { AccountRequest, KycApplication } from "@/contract/kyc";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import {
  AccountRequestStatusBadge,
  KYC_TEXTS,
  KycStatusBadge,
} from "@/web/features/kyc/components/status-badges";
import { formatDate } from "@/web/lib/format";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words text-ink">{children}</dd>
    </div>
  );
}

/** /apply-checking: an application exists and is not rejected, so its status shows instead of the form. */
export function ApplicationStatusView({
  kyc,
  accountRequest,
}: {
  kyc: KycApplication;
  accountRequest: AccountRequest | null;
}) {
  const isApproved = kyc.status === "approved";
  const Icon = isApproved ? CheckCircle2 : Clock;
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-start">
        <span
          className={
            isApproved
              ? "flex size-12 shrink-0 items-center justify-center rounded-full bg-positive-soft text-positive"
              : "flex size-12 shrink-0 items-center justify-center rounded-full bg-pending-soft text-pending"
          }
        >
          <Icon className="size-6" aria-hidden />
        </span>
        <div className="grid min-w-0 flex-1 gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-lg">Application Status</CardTitle>
            <KycStatusBadge status={kyc.status} />
          </div>
          <CardDescription>{KYC_TEXTS[kyc.status]}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="divide-y divide-line border-y border-line">
          <Row label="Account type">
            <span className="capitalize">{kyc.accountType}</span>
            {kyc.companyName ? <span className="text-ink-muted"> · {kyc.companyName}</span> : null}
          </Row>
          <Row label="Applicant">
            {kyc.firstName} {kyc.lastName}
          </Row>
          <Row label="Address">{kyc.address}</Row>
          <Row label="SSN">
            <span className="tabular-nums">{kyc.ssn}</span>
          </Row>
          <Row label="Submitted">{formatDate(kyc.submittedAt)}</Row>
          {kyc.reviewedAt ? <Row label="Reviewed">{formatDate(kyc.reviewedAt)}</Row> : null}
          {accountRequest ? (
            <Row label="Checking account">
              <span className="grid gap-1.5">
                <span>
                  <AccountRequestStatusBadge status={accountRequest.status} />
                </span>
                {accountRequest.statusMessage ? (
                  <span className="font-normal text-ink-muted">{accountRequest.statusMessage}</span>
                ) : null}
              </span>
            </Row>
          ) : null}
        </dl>
        <Button asChild variant="secondary" className="justify-self-start">
          <Link href="/dashboard">
            <ArrowLeft aria-hidden />
            Back to Dashboard
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
