import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReconciliationReport } from "@/contract/settlement";
import { ADMIN_RECONCILIATIONS_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/settlement/reconciliations: "Run now", the hourly job on demand. */
export function useRunReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<ReconciliationReport>("POST", ADMIN_RECONCILIATIONS_KEY[0], {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ADMIN_RECONCILIATIONS_KEY }),
  });
}
