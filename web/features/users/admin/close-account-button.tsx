import { Lock } from "lucide-react";
import type { AdminUser } from "@/contract/admin";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { ConfirmButton } from "@/web/components/confirm-button";
import { errorMessage } from "@/web/components/toast-error";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useCloseCustomerAccount } from "@/web/features/users/admin/api/close-account";
import { isUnauthorized } from "@/web/lib/api";

/**
 * Closes a customer's account with a reason (decision 059): compliance only, customers only, open accounts only.
 * The server refuses a balance, anything in flight, or an open request, in words shown in the toast.
 */
export function CloseAccountButton({ user }: { user: AdminUser }) {
  const close = useCloseCustomerAccount();
  const mayClose = useStaffCapability("closeAccount");
  if (!mayClose || user.isAdmin || user.status === "closed") return null;
  const name = `${user.firstName} ${user.lastName}`;
  const onConfirm = (reason: string) =>
    close.mutateAsync({ userId: user.id, reason }).then(
      () => true,
      (error) => {
        if (!isUnauthorized(error))
          toast({
            title: "Could not close the account",
            description: errorMessage(error, "Please try again"),
            variant: "destructive",
          });
        return false;
      },
    );
  return (
    <ConfirmButton
      variant="secondary"
      isPending={close.isPending}
      destructive
      title={`Close ${name}'s account?`}
      description="The balance must be $0.00 with nothing pending. Money then neither leaves nor arrives; the customer keeps their sign-in for statements, and identity data is erased after the retention period."
      reason={{
        id: `close-account-reason-${user.id}`,
        label: "Reason for closing",
        hint: "Kept on the account and in the audit log.",
      }}
      confirmLabel="Close account"
      pendingLabel="Closing the account"
      onConfirm={onConfirm}
    >
      {close.isPending ? <Spinner className="size-4" label="Closing the account" /> : <Lock aria-hidden />}
      Close account
    </ConfirmButton>
  );
}
