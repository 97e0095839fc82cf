import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN_SETTLEMENT_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/settlement/payouts/{id}/speed-up: a replacement at the same nonce with a higher fee. It moves
 * money on chain, so it needs a fresh second factor: a 403 stepUpRequired opens "Verify it's you" and it runs again.
 */
export function useSpeedUpPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      withStepUp(() => callEndpoint("POST /api/admin/settlement/payouts/:id/speed-up", { params: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_SETTLEMENT_KEY }),
  });
}
