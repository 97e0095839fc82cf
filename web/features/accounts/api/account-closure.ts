import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CloseAccountResponse, ClosureStatus } from "@/contract/closure";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

export const ACCOUNT_CLOSURE_KEY = ["/api/account/closure"] as const;

/** GET /api/account/closure: when and by whom the account was closed, or null while it is open (decision 059). */
export const accountClosureQuery = queryOptions({
  queryKey: ACCOUNT_CLOSURE_KEY,
  queryFn: ({ signal }) => apiRequest<ClosureStatus>("GET", "/api/account/closure", undefined, { signal }),
  staleTime: 30_000,
});

export function useAccountClosure(enabled = true) {
  return useQuery({ ...accountClosureQuery, enabled });
}

/**
 * POST /api/account/close, confirmed as decision 047's changes are: the step-up dialog when a second factor is
 * enrolled (withStepUp), else the password, which the card asks for when the server answers
 * `password_confirm_required`.
 */
export function useCloseAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { password?: string }) =>
      withStepUp(() => apiRequest<CloseAccountResponse>("POST", "/api/account/close", input)),
    onSuccess: (data) => {
      queryClient.setQueryData(ACCOUNT_CLOSURE_KEY, { closure: data.closure });
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_SUMMARY_KEY });
    },
  });
}
