import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PendingApprovalResponse } from "@/contract/approvals";
import type { MessageResponse } from "@/contract/auth";
import { ADMIN_USERS_KEY } from "@/web/features/admin/api/get-admin-users";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/users/:userId/unfreeze: staff lift a "This wasn't me" freeze (audited). */
export function unfreezeUser({ userId, reason }: { userId: string; reason: string }) {
  // Maker-checker: the request waits for a second compliance member (202 "Sent for approval").
  return apiRequest<MessageResponse | PendingApprovalResponse>(
    "POST",
    `/api/admin/users/${encodeURIComponent(userId)}/unfreeze`,
    { reason },
  );
}

export function useUnfreezeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unfreezeUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
  });
}
