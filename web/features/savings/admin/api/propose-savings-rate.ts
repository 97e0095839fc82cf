import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PendingApprovalResponse } from "@/contract/approvals";
import type { ProposeSavingsRateInput } from "@/contract/savings-admin";
import { ADMIN_SAVINGS_RATES_KEY } from "@/web/features/savings/admin/api/get-savings-rates";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/savings/rates (owners): a new APY from a future New York day, sent for a second finance member's
 * or owner's approval (decision 071); it needs a fresh second factor.
 */
export function useProposeSavingsRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProposeSavingsRateInput) =>
      withStepUp(() => apiRequest<PendingApprovalResponse>("POST", ADMIN_SAVINGS_RATES_KEY[0], input)),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
