import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReconciliationDetail } from "@/contract/settlement";
import { ADMIN_RECONCILIATIONS_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { apiRequest } from "@/web/lib/api";

/** GET /api/admin/settlement/reconciliations/{id}: one report with its items. */
export const reconciliationQuery = (id: string) =>
  queryOptions({
    queryKey: [...ADMIN_RECONCILIATIONS_KEY, id],
    queryFn: ({ signal }) =>
      apiRequest<ReconciliationDetail>(
        "GET",
        `${ADMIN_RECONCILIATIONS_KEY[0]}/${encodeURIComponent(id)}`,
        undefined,
        { signal },
      ),
  });

export function useReconciliation(id: string, enabled: boolean) {
  return useQuery({ ...reconciliationQuery(id), enabled });
}
