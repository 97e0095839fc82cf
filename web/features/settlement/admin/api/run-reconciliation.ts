import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ADMIN_RECONCILIATIONS_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/settlement/reconciliations: "Run now", the hourly job on demand. */
export function useRunReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint("POST /api/admin/settlement/reconciliations"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_RECONCILIATIONS_KEY }),
  });
}
