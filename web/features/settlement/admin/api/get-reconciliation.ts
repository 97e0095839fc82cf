import { queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN_RECONCILIATIONS_KEY } from "@/web/features/settlement/admin/api/get-settlement";
import { callEndpoint } from "@/web/lib/api";

/** GET /api/admin/settlement/reconciliations/{id}: one report with its items. */
export const reconciliationQuery = (id: string) =>
  queryOptions({
    queryKey: [...ADMIN_RECONCILIATIONS_KEY, id],
    queryFn: ({ signal }) =>
      callEndpoint("GET /api/admin/settlement/reconciliations/:id", { params: { id } }, { signal }),
  });

export function useReconciliation(id: string, enabled: boolean) {
  return useQuery({ ...reconciliationQuery(id), enabled });
}
