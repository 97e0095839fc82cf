import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "@/contract/auth";
import { toast } from "@/web/components/ui/use-toast";
import { ADMIN_USERS_KEY } from "@/web/features/admin/api/get-admin-users";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/users/:userId/unfreeze: staff lift a "This wasn't me" freeze (audited). */
export function unfreezeUser(userId: string) {
  return apiRequest<MessageResponse>("POST", `/api/admin/users/${encodeURIComponent(userId)}/unfreeze`);
}

export function useUnfreezeUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unfreezeUser,
    onSuccess: (result) => {
      toast({ title: "Freeze lifted", description: result.message });
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
  });
}
