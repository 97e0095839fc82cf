import { ShieldCheck } from "lucide-react";
import type { AdminUser } from "@/contract/admin";
import { REVIEWER_SEES_REASON } from "@/web/components/admin/reason-hints";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { ConfirmButton } from "@/web/components/confirm-button";
import { errorMessage } from "@/web/components/toast-error";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useUnfreezeUser } from "@/web/features/users/admin/api/unfreeze-user";
import { isUnauthorized } from "@/web/lib/api";

/**
 * Asks to lift a "This wasn't me" freeze, with a reason; only frozen accounts get the button. A second
 * compliance member approves it in the Approvals tab before the freeze actually goes.
 */
export function LiftFreezeButton({ user }: { user: AdminUser }) {
  const unfreeze = useUnfreezeUser();
  const mayLift = useStaffCapability("liftFreeze");
  if (!user.frozenAt || !mayLift) return null;
  const name = `${user.firstName} ${user.lastName}`;
  const onConfirm = (reason: string) =>
    unfreeze.mutateAsync({ userId: user.id, reason }).then(
      // The success toast comes from the mutation (useUnfreezeUser), which outlives this row.
      () => true,
      (error) => {
        if (!isUnauthorized(error))
          toast({
            title: "Failed to lift the freeze",
            description: errorMessage(error, "Please try again"),
            variant: "destructive",
          });
        return false;
      },
    );
  return (
    <ConfirmButton
      variant="secondary"
      isPending={unfreeze.isPending}
      title={`Lift the freeze on ${name}?`}
      description={`Only ask once you have confirmed with the customer that their account is safe. A second compliance member approves it; then they can send money again${user.passwordResetRequired ? " after they reset their password" : ""}. Flagged transfers stay flagged for review.`}
      reason={{
        id: `lift-freeze-reason-${user.id}`,
        label: "Reason for lifting the freeze",
        hint: REVIEWER_SEES_REASON,
      }}
      confirmLabel="Send for approval"
      onConfirm={onConfirm}
    >
      {unfreeze.isPending ? (
        <Spinner className="size-4" label="Lifting the freeze" />
      ) : (
        <ShieldCheck aria-hidden />
      )}
      Lift freeze
    </ConfirmButton>
  );
}
