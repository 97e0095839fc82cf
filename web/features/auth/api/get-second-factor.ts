import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const SECOND_FACTOR_KEY = ["/api/auth/second-factor"] as const;

/** GET /api/auth/second-factor: what the Security card shows. */
export function getSecondFactor({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/auth/second-factor", {}, { signal });
}

export const secondFactorQuery = queryOptions({
  queryKey: SECOND_FACTOR_KEY,
  queryFn: ({ signal }) => getSecondFactor({ signal }),
  staleTime: 0,
});

export function useSecondFactor() {
  return useQuery(secondFactorQuery);
}
