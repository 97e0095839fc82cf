import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
// Types only: contract/savings.ts builds zod schemas, and the dashboard (zod-free) reads this file.
import type { CreateSavingsGoalInput, SavingsDirection } from "@/contract/savings";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { callEndpoint, refetchOnMountUnlessFromPage } from "@/web/lib/api";
import { RECENT_TRANSACTIONS_KEY } from "@/web/lib/recent-transactions";

export const SAVINGS_KEY = ["/api/savings"] as const;

/** GET /api/savings: the rate on offer and the customer's savings account (null until opened). */
export function getSavings({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/savings", {}, { signal });
}

/**
 * Refreshed by the pushed "savings" notice (a move, a credit) and whenever a screen showing it mounts, except the
 * dashboard's first mount, whose answer came inside the page (DASHBOARD_FIRST_READS).
 */
export const savingsQuery = queryOptions({
  queryKey: SAVINGS_KEY,
  queryFn: ({ signal }) => getSavings({ signal }),
  staleTime: 0,
  refetchOnMount: refetchOnMountUnlessFromPage("always"),
});

export function useSavings() {
  return useQuery(savingsQuery);
}

/** POST /api/savings: opens the account; the answer is the new overview. */
export function useOpenSavings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint("POST /api/savings"),
    onSuccess: (overview) => queryClient.setQueryData(SAVINGS_KEY, overview),
  });
}

export interface MoveSavingsVariables {
  input: { direction: SavingsDirection; amount: string; goalId: string | null };
  /** One per attempt: the same key only when the same attempt is sent again after an unknown outcome. */
  idempotencyKey: string;
}

/** What a move changes: both balances, and the checking history's "To Savings" / "From Savings" row. */
const AFTER_MOVE = [SAVINGS_KEY, ACCOUNT_SUMMARY_KEY, RECENT_TRANSACTIONS_KEY, ["/api/transactions"]];

/** POST /api/savings/moves: between the customer's own accounts, so no second factor (decision 068). */
export function useMoveSavings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: MoveSavingsVariables) =>
      callEndpoint(
        "POST /api/savings/moves",
        { body: input },
        { headers: { "Idempotency-Key": idempotencyKey } },
      ),
    onSuccess: () => {
      for (const queryKey of AFTER_MOVE) void queryClient.invalidateQueries({ queryKey });
    },
  });
}

/** POST /api/savings/goals: the answer is the overview with the new goal in it. */
export function useCreateSavingsGoal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSavingsGoalInput) => callEndpoint("POST /api/savings/goals", { body: input }),
    onSuccess: (overview) => queryClient.setQueryData(SAVINGS_KEY, overview),
  });
}

/**
 * DELETE /api/savings: closes the account, its balance and the interest owed moved to checking in one call (the
 * key makes a resend after no answer close it once).
 */
export function useCloseSavings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey }: { idempotencyKey: string }) =>
      callEndpoint("DELETE /api/savings", {}, { headers: { "Idempotency-Key": idempotencyKey } }),
    onSuccess: () => {
      for (const queryKey of AFTER_MOVE) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
