import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/users/:userId/close: compliance close a customer's zero-balance account, with a reason (059). */
export function closeAccount({ userId, reason }: { userId: string; reason: string }) {
  return callEndpoint("POST /api/admin/users/:userId/close", { params: { userId }, body: { reason } });
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
