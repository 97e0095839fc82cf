import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

export const ACCOUNT_CLOSURE_KEY = ["/api/account/closure"] as const;

/** GET /api/account/closure: when and by whom the account was closed, or null while it is open (decision 059). */
export const accountClosureQuery = queryOptions({
  queryKey: ACCOUNT_CLOSURE_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/account/closure", {}, { signal }),
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
      withStepUp(() => callEndpoint("POST /api/account/close", { body: input })),
    onSuccess: (data) => {
      queryClient.setQueryData(ACCOUNT_CLOSURE_KEY, { closure: data.closure });
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_SUMMARY_KEY });
    },
  });
}
