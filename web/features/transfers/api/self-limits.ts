import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SendBlockCooldown } from "@/contract/self-limits";
import { callEndpoint, type ReplyOf } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

export const SELF_LIMITS_KEY = ["/api/transfer/self-limits"] as const;

/** GET /api/transfer/self-limits: the customer's own daily limit, a waiting raise, and the send block. */
export const selfLimitsQuery = queryOptions({
  queryKey: SELF_LIMITS_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/transfer/self-limits", {}, { signal }),
  staleTime: 0,
});

export function useSelfLimits() {
  return useQuery(selfLimitsQuery);
}

type Changed = ReplyOf<"PUT /api/transfer/self-limits/daily-limit">;

function useSelfLimitChange<V>(send: (variables: V) => Promise<Changed>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (data) => {
      queryClient.setQueryData(SELF_LIMITS_KEY, data.selfLimits);
      void queryClient.invalidateQueries({ queryKey: ["/api/transfer/limits"] });
    },
  });
}

/**
 * What lowering the limit or switching the block on is confirmed with (decision 047): the step-up dialog when the
 * customer has a second factor (withStepUp), else the account password, which the card asks for when the server
 * answers `password_confirm_required`.
 */
interface Confirmed {
  password?: string;
}

/** PUT /api/transfer/self-limits/daily-limit: lower now, or raise after 24 hours (null: the bank's limit). */
export function useSetDailyLimit() {
  return useSelfLimitChange((input: { dailyLimit: string | null } & Confirmed) =>
    withStepUp(() => callEndpoint("PUT /api/transfer/self-limits/daily-limit", { body: input })),
  );
}

/** PUT /api/transfer/self-limits/send-block: on with a cooldown, or off (the cooldown then runs). */
export function useSetSendBlock() {
  return useSelfLimitChange((input: { on: boolean; cooldown?: SendBlockCooldown } & Confirmed) =>
    withStepUp(() => callEndpoint("PUT /api/transfer/self-limits/send-block", { body: input })),
  );
}
