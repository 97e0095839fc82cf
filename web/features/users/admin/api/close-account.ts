import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CloseAccountResponse } from "@/contract/closure";
import { ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { toast } from "@/web/components/ui/use-toast";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/users/:userId/close: compliance close a customer's zero-balance account, with a reason (059). */
export function closeAccount({ userId, reason }: { userId: string; reason: string }) {
  return apiRequest<CloseAccountResponse>("POST", `/api/admin/users/${encodeURIComponent(userId)}/close`, {
    reason,
  });
}

export function useCloseCustomerAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeAccount,
    onSuccess: (result) => {
      toast({ title: "Account closed", description: result.message });
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
  });
}
