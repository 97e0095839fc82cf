import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProposeSavingsRateInput } from "@/contract/savings-admin";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/savings/rates (owners): a new APY from a future New York day, sent for a second finance member's
 * or owner's approval (decision 071); it needs a fresh second factor.
 */
export function useProposeSavingsRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProposeSavingsRateInput) =>
      withStepUp(() => callEndpoint("POST /api/admin/savings/rates", { body: input })),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
