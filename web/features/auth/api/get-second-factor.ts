import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SecondFactorStatus } from "@/contract/security";
import { apiRequest } from "@/web/lib/api";

export const SECOND_FACTOR_KEY = ["/api/auth/second-factor"] as const;

/** GET /api/auth/second-factor: what the Security card shows. */
export function getSecondFactor({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<SecondFactorStatus>("GET", "/api/auth/second-factor", undefined, { signal });
}

export const secondFactorQuery = queryOptions({
  queryKey: SECOND_FACTOR_KEY,
  queryFn: ({ signal }) => getSecondFactor({ signal }),
  staleTime: 0,
});

export function useSecondFactor() {
  return useQuery(secondFactorQuery);
}
