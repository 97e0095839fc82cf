import { CheckCircle2, FileCheck2, RotateCcw } from "lucide-react";
import type { AdminKycApplication } from "@/contract/admin-onboarding";
import { type DocumentType, KYC_STATUSES, type KycStatus } from "@/contract/kyc";
import { useListFilter } from "@/web/components/admin/admin-list";
import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
import { DetailField } from "@/web/components/admin/detail-field";
import { FilterBar } from "@/web/components/admin/list-controls";
import { filteredEmpty, ListHeader, ListStates } from "@/web/components/admin/list-states";
import { REVIEWER_SEES_REASON } from "@/web/components/admin/reason-hints";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { ConfirmButton } from "@/web/components/confirm-button";
import { errorMessage } from "@/web/components/toast-error";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useApproveKycApplication } from "@/web/features/kyc/admin/api/approve-kyc-application";
import { useKycApplications } from "@/web/features/kyc/admin/api/get-kyc-applications";
import { useResetKycApplication } from "@/web/features/kyc/admin/api/reset-kyc-application";
import { DocumentViewer } from "@/web/features/kyc/admin/document-viewer";
import { RejectKycDialog } from "@/web/features/kyc/admin/reject-kyc-dialog";
import { DateOfBirthRevealDialog, SsnRevealDialog } from "@/web/features/kyc/admin/ssn-reveal-dialog";
import { formatDate, formatDateTime } from "@/web/lib/format";
import { PhoneNumber } from "@/web/lib/phone-display";

type Tone = NonNullable<BadgeProps["tone"]>;
type Filter = KycStatus | "all";

const STATUS_BADGES: Record<KycStatus, { label: string; tone: Tone }> = {
  pending: { label: "Pending", tone: "pending" },
  approved: { label: "Approved", tone: "positive" },
  rejected: { label: "Rejected", tone: "negative" },
};

const DOCUMENT_LABELS: Record<DocumentType, string> = {
  drivingLicenseFront: "License front",
  drivingLicenseBack: "License back",
  llcDocument: "LLC document",
  einDocument: "EIN document",
};

const FILTER_LABELS: Record<Filter, string> = {
  all: "All",
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
};

function onReviewError(fallback: string) {
  return (error: unknown) => {
    if (handleAdminSessionExpired(error)) return;
    toast({ title: "Error", description: errorMessage(error, fallback), variant: "destructive" });
  };
}

/** Approve and reject on pending items; a rejected item can be reset; approved shows only its badge. */
function ReviewActions({ application }: { application: AdminKycApplication }) {
  const approve = useApproveKycApplication();
  const reset = useResetKycApplication();
  const name = `${application.firstName} ${application.lastName}`;

  if (!application.isCurrent || application.status === "approved") return null;
  if (application.status === "rejected") {
    return (
      <ConfirmButton
        variant="secondary"
        size="sm"
        aria-label={`Reset application from ${name} to pending`}
        isPending={reset.isPending}
        title="Reset to pending?"
        description={`${name}'s rejected application goes back to review once a second compliance member approves.`}
        reason={{
          id: `reset-kyc-reason-${application.id}`,
          label: "Reason for reopening",
          hint: REVIEWER_SEES_REASON,
        }}
        confirmLabel="Send for approval"
        onConfirm={(reason) =>
          reset.mutateAsync({ id: application.id, reason }).then(
            // The success toast comes from the mutation (useResetKycApplication).
            () => true,
            (error) => {
              onReviewError("Failed to reset KYC status")(error);
              return false;
            },
          )
        }
      >
        {reset.isPending ? <Spinner className="size-4" label="Resetting" /> : <RotateCcw aria-hidden />}
        Reset to Pending
      </ConfirmButton>
    );
  }
  return (
    <>
      <Button
        size="sm"
        disabled={approve.isPending}
        aria-label={`Approve application from ${name}`}
        onClick={() =>
          approve
            .mutateAsync({ id: application.id, notes: null })
            .catch(onReviewError("Failed to update KYC status"))
        }
      >
        {approve.isPending ? (
          <Spinner className="size-4 text-white" label="Approving" />
        ) : (
          <CheckCircle2 aria-hidden />
        )}
        Approve
      </Button>
      <RejectKycDialog application={application} />
    </>
  );
}

function ApplicationItem({ application }: { application: AdminKycApplication }) {
  // Documents follow DOCUMENT_ROLES: without it the server answers 404, so no link is offered.
  const mayOpenDocuments = useStaffCapability("openDocuments");
  const canReveal = useStaffCapability("revealSsn");
  const canRevealDateOfBirth = useStaffCapability("revealDateOfBirth");
  const name = `${application.firstName} ${application.lastName}`;
  const badge = STATUS_BADGES[application.status];
  const documents = (Object.keys(DOCUMENT_LABELS) as DocumentType[]).flatMap((type) => {
    const url = application[type];
    return url ? [{ type, url }] : [];
  });

  return (
    <li className="grid gap-4 py-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-0.5">
          <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-ink">
            <span className="truncate">{name}</span>
            <Badge tone={application.accountType === "business" ? "brand" : "neutral"}>
              {application.accountType === "business" ? "Business" : "Personal"}
            </Badge>
            {application.isCurrent ? null : <Badge tone="neutral">Superseded</Badge>}
          </p>
          <p className="truncate text-xs text-ink-muted">
            {application.user.email} · submitted {formatDateTime(application.submittedAt)}
          </p>
        </div>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </div>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {application.companyName ? (
          <DetailField label="Company">{application.companyName}</DetailField>
        ) : null}
        <DetailField label="Address">{application.address}</DetailField>
        <DetailField label="SSN">
          <span className="flex flex-wrap items-center gap-1">
            <span className="tabular-nums">{application.ssn}</span>
            {canReveal ? <SsnRevealDialog kycId={application.id} applicant={name} /> : null}
          </span>
        </DetailField>
        {/* Masked to the year: the reviewer reveals it (audited) to match it against the licence. */}
        <DetailField label="Date of birth">
          {application.dateOfBirth ? (
            <span className="flex flex-wrap items-center gap-1">
              <span className="tabular-nums">{application.dateOfBirth}</span>
              {canRevealDateOfBirth ? (
                <DateOfBirthRevealDialog kycId={application.id} applicant={name} />
              ) : null}
            </span>
          ) : (
            "Not asked (applied before it was)"
          )}
        </DetailField>
        <DetailField label="Phone">
          <span className="tabular-nums">
            {application.user.phoneNumber ? (
              <PhoneNumber stored={application.user.phoneNumber} />
            ) : (
              "Not added"
            )}
          </span>
        </DetailField>
        {application.reviewedAt ? (
          <DetailField label="Reviewed">{formatDate(application.reviewedAt)}</DetailField>
        ) : null}
        {application.adminNotes ? (
          <DetailField label={application.status === "rejected" ? "Rejection reason" : "Notes"}>
            {application.adminNotes}
          </DetailField>
        ) : null}
      </dl>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap gap-2">
          {!mayOpenDocuments ? null : documents.length === 0 ? (
            <span className="text-xs text-ink-muted">No documents uploaded</span>
          ) : (
            documents.map(({ type, url }) => (
              <DocumentViewer key={type} url={url} label={DOCUMENT_LABELS[type]} applicant={name} />
            ))
          )}
        </div>
        <div className="flex flex-wrap gap-2 sm:justify-end">
          <ReviewActions application={application} />
        </div>
      </div>
    </li>
  );
}

/**
 * /admin 'KYC Applications' tab: applications with their documents, approve / reject / reset. Searched
 * and filtered on the server, a page at a time ("Load more").
 */
export default function KycApplicationsTab() {
  const filter = useListFilter<Filter>("all");
  const { query: applications, items } = useKycApplications({ q: filter.search.q, status: filter.status });

  return (
    <Card>
      <ListHeader
        title="KYC Applications"
        description="Identity verifications and their documents, newest first"
      >
        <FilterBar
          filter={filter}
          legend="Show applications"
          options={["all", ...KYC_STATUSES] as const}
          labelOf={(value) => FILTER_LABELS[value]}
          search={{
            id: "admin-kyc-search",
            label: "Search KYC applications",
            placeholder: "Search name, email or tag",
          }}
        />
      </ListHeader>
      <CardContent className="grid gap-4">
        <ListStates
          query={applications}
          items={items}
          what="KYC applications"
          loadingLabel="Loading KYC applications"
          shape="card"
          empty={filteredEmpty(filter, {
            icon: FileCheck2,
            none: "No KYC applications yet",
            noMatch: "No applications match your search",
            statusLabel: FILTER_LABELS[filter.status],
            noun: "applications",
            text: "Applications appear here as soon as customers submit them.",
          })}
          listClassName="-my-5"
          row={(a) => <ApplicationItem key={a.id} application={a} />}
        />
      </CardContent>
    </Card>
  );
}
