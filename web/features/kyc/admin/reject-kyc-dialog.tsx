import { XCircle } from "lucide-react";
import type { AdminKycApplication } from "@/contract/admin-onboarding";
import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
import { ConfirmButton } from "@/web/components/confirm-button";
import { errorMessage } from "@/web/components/toast-error";
import { toast } from "@/web/components/ui/use-toast";
import { useRejectKycApplication } from "@/web/features/kyc/admin/api/reject-kyc-application";

/** 'Reject KYC Application' — a reason is required (non-blank after trimming) before rejecting. */
export function RejectKycDialog({ application }: { application: AdminKycApplication }) {
  const reject = useRejectKycApplication();
  const name = `${application.firstName} ${application.lastName}`;
  const onConfirm = (notes: string) =>
    reject.mutateAsync({ id: application.id, notes }).then(
      () => true,
      (error) => {
        if (!handleAdminSessionExpired(error))
          toast({
            title: "Error",
            description: errorMessage(error, "Failed to update KYC status"),
            variant: "destructive",
          });
        return false;
      },
    );
  return (
    <ConfirmButton
      variant="secondary"
      size="sm"
      className="text-negative"
      aria-label={`Reject application from ${name}`}
      isPending={reject.isPending}
      title="Reject KYC Application"
      description={`${name} will be told the application was not approved, with this reason, and can apply again.`}
      reason={{
        id: `reject-reason-${application.id}`,
        label: "Reason for rejection",
        hint: "Required. The applicant sees this.",
        placeholder: "e.g. The driving license photo is unreadable.",
        maxLength: 2000,
        rows: 4,
      }}
      confirmLabel="Reject Application"
      destructive
      pendingLabel="Rejecting"
      onConfirm={onConfirm}
    >
      <XCircle aria-hidden />
      Reject
    </ConfirmButton>
  );
}
