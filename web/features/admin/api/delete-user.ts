import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN_STATS_KEY } from "@/web/features/admin/api/get-admin-stats";
import { ADMIN_USERS_KEY } from "@/web/features/admin/api/get-admin-users";
import { apiRequest } from "@/web/lib/api";

/** DELETE /api/admin/users/:userId (non-admin accounts only). */
export function deleteUser(userId: string) {
  return apiRequest<unknown>("DELETE", `/api/admin/users/${encodeURIComponent(userId)}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    // Not awaited: the deleted row unmounts once the list refetches, and the caller's toast must fire first.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
      void queryClient.invalidateQueries({ queryKey: ADMIN_STATS_KEY });
    },
  });
}
