import { ShieldCheck } from "lucide-react";
import type { AdminUser } from "@/contract/admin";
import { errorMessage } from "@/web/components/toast-error";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/web/components/ui/alert-dialog";
import { Button } from "@/web/components/ui/button";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useUnfreezeUser } from "@/web/features/admin/api/unfreeze-user";
import { useStaffCapability } from "@/web/features/admin/use-staff-capability";
import { isUnauthorized } from "@/web/lib/api";

/** Lifts a "This wasn't me" freeze after a confirm step; only frozen accounts get the button, only compliance sees it. */
export function LiftFreezeButton({ user }: { user: AdminUser }) {
  const unfreeze = useUnfreezeUser();
  const mayLift = useStaffCapability("liftFreeze");
  if (!user.frozenAt || !mayLift) return null;
  const name = `${user.firstName} ${user.lastName}`;
  const onConfirm = () =>
    unfreeze.mutateAsync(user.id).catch((error) => {
      if (!isUnauthorized(error))
        toast({
          title: "Failed to lift the freeze",
          description: errorMessage(error, "Please try again"),
          variant: "destructive",
        });
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="secondary" disabled={unfreeze.isPending}>
          {unfreeze.isPending ? (
            <Spinner className="size-4" label="Lifting the freeze" />
          ) : (
            <ShieldCheck aria-hidden />
          )}
          Lift freeze
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Lift the freeze on {name}?</AlertDialogTitle>
          <AlertDialogDescription>
            Only lift it once you have confirmed with the customer that their account is safe. They can send
            money again{user.passwordResetRequired ? " after they reset their password" : ""}. Flagged
            transfers stay flagged for review.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Lift freeze</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
