import { formatMoney } from "@/contract/money";
import { ConfirmButton } from "@/web/components/confirm-button";
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
    <ConfirmButton
      variant="secondary"
      isPending={cancel.isPending}
      title="Cancel this transfer?"
      description={`The ${formatMoney(amountCents)} hold is released to your available balance. Nothing is sent.`}
      cancelLabel="Keep it"
      confirmLabel="Cancel transfer"
      onConfirm={onConfirm}
    >
      {cancel.isPending ? "Cancelling…" : "Cancel transfer"}
    </ConfirmButton>
  );
}
