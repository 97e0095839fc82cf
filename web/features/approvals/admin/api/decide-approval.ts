import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/approvals/{id}/approve or /reject (reject needs a reason): a second staff member decides.
 * Both need a fresh second factor: a 403 stepUpRequired opens "Verify it's you" and the call runs once more.
 */
export function decideApproval({
  id,
  decision,
  reason,
}: {
  id: string;
  decision: "approve" | "reject";
  reason?: string;
}) {
  return withStepUp(() =>
    callEndpoint(`POST /api/admin/approvals/:id/${decision}`, {
      params: { id },
      body: reason ? { reason } : {},
    }),
  );
}

export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    // An approval moves money or state anywhere in the back office: every list reads fresh.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
