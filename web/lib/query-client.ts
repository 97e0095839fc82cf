import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "@/web/lib/api";

/** Spec §9 defaults: never stale, no refetch on focus, no interval, no retries for reads or writes. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
