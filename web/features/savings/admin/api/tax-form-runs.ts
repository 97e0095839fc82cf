import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADMIN_TAX_FORM_RUNS_KEY = ["/api/admin/tax-forms/runs"] as const;

/**
 * GET /api/admin/tax-forms/runs: the last ended tax year's Form 1099-INT run (decision 070), asked again every
 * two seconds while a run is working.
 */
export const taxFormRunsQuery = queryOptions({
  queryKey: ADMIN_TAX_FORM_RUNS_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/admin/tax-forms/runs", { query: {} }, { signal }),
  refetchInterval: (query) => (query.state.data?.runs[0]?.status === "running" ? 2000 : false),
});

export function useTaxFormRuns() {
  return useQuery(taxFormRunsQuery);
}

/** POST /api/admin/tax-forms/runs {year}: starts the year's run (202), or says why it may not (409). */
export function useStartTaxFormRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (year: number) => callEndpoint("POST /api/admin/tax-forms/runs", { body: { year } }),
    onSuccess: (status) => queryClient.setQueryData(ADMIN_TAX_FORM_RUNS_KEY, status),
  });
}
