import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN_RECONCILIATIONS_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/settlement/reconciliations/{id}/items/{itemId}/acknowledge: a difference explained, with a
 * reason (decision 040). It stays in the report, marked; it needs a fresh second factor.
 */
export function useAcknowledgeDifference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, itemId, reason }: { reportId: string; itemId: string; reason: string }) =>
      withStepUp(() =>
        callEndpoint("POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge", {
          params: { id: reportId, itemId },
          body: { reason },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_RECONCILIATIONS_KEY }),
  });
}
