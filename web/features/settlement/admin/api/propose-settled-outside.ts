import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SettledOutsideInput } from "@/contract/settlement";
import { ADMIN_SETTLEMENT_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/settlement/payouts/{id}/settled-outside: proposes that a payout was paid outside Pillar
 * (decision 040). Nothing moves until a second finance member approves; it needs a fresh second factor.
 */
export function useProposeSettledOutside() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: SettledOutsideInput & { id: string }) =>
      withStepUp(() =>
        callEndpoint("POST /api/admin/settlement/payouts/:id/settled-outside", { params: { id }, body }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_SETTLEMENT_KEY }),
  });
}
