import { useSyncExternalStore } from "react";
import { StepUpDialog } from "@/web/components/step-up-dialog";
import { getStepUpPasskeyOptions, stepUp, stepUpStore } from "@/web/lib/step-up";

/** The one step-up dialog of the signed-in app, opened by withStepUp() when the server asks for a fresh proof. */
export default function StepUpHost() {
  const request = useSyncExternalStore(stepUpStore.subscribe, stepUpStore.get);
  return (
    <StepUpDialog
      open={request !== null}
      onOpenChange={(open) => {
        if (!open) stepUpStore.settle("cancelled");
      }}
      methods={request?.methods ?? []}
      getPasskeyOptions={getStepUpPasskeyOptions}
      onProof={async (proof) => {
        await stepUp(proof);
        stepUpStore.settle("verified");
      }}
    />
  );
}
