import type { TagLookup } from "@/contract/tag-payments";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/web/components/ui/alert-dialog";

/**
 * The last look before a payment by $tag leaves, as paying a request has: who, how much, and that it
 * cannot be called back. Nothing is sent until "Pay … now".
 */
export function ConfirmTagPayment({
  amount,
  payee,
  note,
  onConfirm,
  onClose,
}: {
  amount: string;
  payee: TagLookup;
  note: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <AlertDialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{`Pay ${amount} to ${payee.name}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {`${amount} goes from your account to ${payee.name} (${payee.tag}) at once. It cannot be called back. No fee.`}
            {note ? ` Note: “${note}”.` : ""}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Not now</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>{`Pay ${amount} now`}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
