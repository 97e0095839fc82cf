import { formatMoney } from "@/contract/money";
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
import { toast } from "@/web/components/ui/use-toast";
import { useCancelTransfer } from "@/web/features/transfers/api/cancel-transfer";
import { isUnauthorized } from "@/web/lib/api";

/** Cancelling asks first, and says what happens to the money. */
export function CancelTransferButton({ id, amountCents }: { id: string; amountCents: number }) {
  const cancel = useCancelTransfer(id);
  const onConfirm = () =>
    cancel.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: "Transfer cancelled",
          description: `${formatMoney(amountCents)} is available again.`,
        }),
      onError: (error) => {
        if (isUnauthorized(error)) return;
        toast({ title: "Couldn't cancel", description: error.message, variant: "destructive" });
      },
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="secondary" disabled={cancel.isPending}>
          {cancel.isPending ? "Cancelling…" : "Cancel transfer"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Cancel this transfer?</AlertDialogTitle>
          <AlertDialogDescription>
            The {formatMoney(amountCents)} hold is released to your available balance. Nothing is sent.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep it</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Cancel transfer</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
