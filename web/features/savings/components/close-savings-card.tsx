import { useState } from "react";
import { ConfirmButton } from "@/web/components/confirm-button";
import { errorMessage } from "@/web/components/toast-error";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { toast } from "@/web/components/ui/use-toast";
import { useCloseSavings } from "@/web/features/savings/api/savings";
import { ApiError } from "@/web/lib/api";
import { ResendKeys } from "@/web/lib/idempotency-key";

/**
 * Closing savings (decision 068): everything in it, with the interest owed to date, moves to checking at
 * once; the customer confirms first, and may open savings again later.
 */
export function CloseSavingsCard({
  balance,
  onClosed,
}: {
  balance: string;
  onClosed: (said: string) => void;
}) {
  const close = useCloseSavings();
  const [error, setError] = useState<string | null>(null);
  // One closing: sent again after no answer (or a 5xx), it keeps its key and closes once.
  const [keys] = useState(() => new ResendKeys());
  const onConfirm = () => {
    setError(null);
    close.mutate(
      { idempotencyKey: keys.keyFor("close") },
      {
        onSuccess: (data) => {
          keys.settled(200);
          const interest = data.closing.interestCents > 0 ? `, ${data.closing.interest} of it interest` : "";
          const said = `${data.closing.moved} moved to Checking${interest}.`;
          toast({ title: data.message, description: said });
          onClosed(`${data.message}. ${said}`);
        },
        onError: (failure) => {
          keys.settled(failure instanceof ApiError ? failure.status : undefined);
          setError(errorMessage(failure, "Savings was not closed. Please try again."));
        },
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Close savings</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm text-ink-muted">
          Everything in savings, with the interest earned so far this month, moves to Checking at once. You
          can open savings again at any time.
        </p>
        <ConfirmButton
          variant="secondary"
          className="justify-self-start"
          isPending={close.isPending}
          title="Close your savings account?"
          description={`${balance} and the interest earned so far this month move to Checking now. Interest below a cent is not paid.`}
          cancelLabel="Keep savings"
          confirmLabel="Close savings"
          onConfirm={onConfirm}
        >
          Close savings
        </ConfirmButton>
        {error ? (
          <p className="text-sm text-negative" role="alert">
            {error}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
