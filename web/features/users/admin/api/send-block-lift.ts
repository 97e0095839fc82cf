import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import type { LiftSendBlockInput } from "@/contract/self-limits";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

const selfLimitsKey = (userId: string) => ["/api/admin/users", userId, "self-limits"] as const;

/** GET /api/admin/users/:userId/self-limits: the customer's own limits and block, for compliance. */
export function customerSelfLimitsQuery(userId: string) {
  return queryOptions({
    queryKey: selfLimitsKey(userId),
    queryFn: ({ signal }) =>
      callEndpoint("GET /api/admin/users/:userId/self-limits", { params: { userId } }, { signal }),
  });
}

export function useCustomerSelfLimits(userId: string, enabled: boolean) {
  return useQuery({ ...customerSelfLimitsQuery(userId), enabled });
}

/** POST /api/admin/users/:userId/lift-send-block: always waits for a second compliance member (decision 047). */
export function useLiftSendBlock(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LiftSendBlockInput) =>
      callEndpoint("POST /api/admin/users/:userId/lift-send-block", { params: { userId }, body: input }),
    onSuccess: () => {
      toast(SENT_FOR_APPROVAL_TOAST);
      void queryClient.invalidateQueries({ queryKey: selfLimitsKey(userId) });
    },
  });
}
