import type { SecondFactorMethod } from "@/contract/security";
import { StepUpDialog } from "@/web/components/step-up-dialog";
import { SignedSummary } from "@/web/features/transfers/components/transfer-review";
import type { TransferFormState } from "@/web/features/transfers/use-transfer-form";

/** The confirm step's prompt, naming only the factors this customer has. */
function confirmPrompt(methods: readonly SecondFactorMethod[]): string {
  const hasPasskey = methods.includes("passkey");
  if (methods.includes("totp")) {
    return hasPasskey
      ? "Enter a code from your authenticator app, or use your passkey, to send this money."
      : "Enter a code from your authenticator app to send this money.";
  }
  if (hasPasskey) {
    return methods.includes("recovery")
      ? "Confirm with your passkey or a recovery code to send this money."
      : "Confirm with your passkey to send this money. It signs this exact amount and address.";
  }
  return "Enter one of your recovery codes to send this money.";
}

/** The second-factor proof the server asked for, over a summary of exactly what it signs. */
export function TransferStepUp({ form }: { form: TransferFormState }) {
  const { stepUp, fields } = form;
  return (
    <StepUpDialog
      open={stepUp.open}
      onOpenChange={stepUp.onOpenChange}
      methods={stepUp.methods}
      title="Confirm this transfer"
      description={confirmPrompt(stepUp.methods)}
      submitLabel="Confirm and send"
      getPasskeyOptions={stepUp.getPasskeyOptions}
      onProof={stepUp.onProof}
    >
      {form.validAmount !== null ? (
        <SignedSummary
          amountCents={form.validAmount}
          feeCents={form.fee}
          recipientName={fields.recipientName.trim()}
          cryptoAddress={fields.cryptoAddress.trim()}
        />
      ) : null}
    </StepUpDialog>
  );
}
