import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isPendingApproval, SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import { ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/users/:userId/unfreeze: staff lift a "This wasn't me" freeze (audited). */
export function unfreezeUser({ userId, reason }: { userId: string; reason: string }) {
  // Maker-checker: the request waits for a second compliance member (202 "Sent for approval").
  return callEndpoint("POST /api/admin/users/:userId/unfreeze", { params: { userId }, body: { reason } });
}

export function useUnfreezeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unfreezeUser,
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : { title: "Freeze lifted", description: result.message },
      );
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
  });
}
