import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "@/contract/auth";
import { ADMIN_STATS_KEY, ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { toast } from "@/web/components/ui/use-toast";
import { apiRequest } from "@/web/lib/api";

/** DELETE /api/admin/users/:userId (non-admin accounts only). */
export function deleteUser(userId: string) {
  return apiRequest<MessageResponse>("DELETE", `/api/admin/users/${encodeURIComponent(userId)}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    // The toast comes from the mutation: the deleted row (and its confirm dialog) unmounts once the list refetches.
    onSuccess: () => {
      toast({ title: "User deleted successfully" });
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
      void queryClient.invalidateQueries({ queryKey: ADMIN_STATS_KEY });
    },
  });
}
