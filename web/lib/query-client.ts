import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { getQueryFn, isUnauthorized } from "@/web/lib/api";

export interface QueryClientHooks {
  /**
   * Called once per failed read or write that answered 401 — spec §8 "Logged out". A call can opt out
   * with `meta: { ignoreUnauthorized: true }` (e.g. sign-in, where 401 means wrong credentials).
   */
  onUnauthorized?: (client: QueryClient) => void;
}

/** Spec §9 defaults: never stale, no refetch on focus, no interval, no retries for reads or writes. */
export function createQueryClient(hooks: QueryClientHooks = {}): QueryClient {
  const handle = (error: unknown, meta: Record<string, unknown> | undefined) => {
    if (!isUnauthorized(error) || meta?.ignoreUnauthorized === true) return;
    hooks.onUnauthorized?.(client);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => handle(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => handle(error, mutation.meta),
    }),
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
  return client;
}
