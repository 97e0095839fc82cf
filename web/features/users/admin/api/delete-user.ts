import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN_STATS_KEY, ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

/** DELETE /api/admin/users/:userId (non-admin accounts only). */
export function deleteUser(userId: string) {
  return callEndpoint("DELETE /api/admin/users/:userId", { params: { userId } });
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
