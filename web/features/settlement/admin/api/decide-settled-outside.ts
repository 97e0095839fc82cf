import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * The checker's decision on a "settled outside Pillar" proposal, on the approvals routes every approval uses
 * (POST /api/admin/approvals/{id}/approve or /reject; reject needs a reason), after a fresh second factor.
 */
export function useDecideSettledOutside() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      approvalId,
      decision,
      reason,
    }: {
      approvalId: string;
      decision: "approve" | "reject";
      reason?: string;
    }) =>
      withStepUp(() =>
        callEndpoint(`POST /api/admin/approvals/:id/${decision}`, {
          params: { id: approvalId },
          body: reason ? { reason } : {},
        }),
      ),
    // The transfer, the customer's balance and the approvals queue all move: every list reads fresh.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
