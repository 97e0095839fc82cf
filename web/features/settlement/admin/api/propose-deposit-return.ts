import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DepositReturnInput } from "@/contract/treasury";
import { ADMIN_SETTLEMENT_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/settlement/deposits/{id}/return: proposes sending an uncreditable deposit back to its sender
 * (decision 060). Nothing moves until a second finance member approves; it needs a fresh second factor.
 */
export function useProposeDepositReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: DepositReturnInput & { id: string }) =>
      withStepUp(() =>
        callEndpoint("POST /api/admin/settlement/deposits/:id/return", { params: { id }, body }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_SETTLEMENT_KEY }),
  });
}
