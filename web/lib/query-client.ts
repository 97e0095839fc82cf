import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import type { FirstRead } from "@/contract/first-page";
import { isUnauthorized, PAGE_ANSWER_TIMES } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";

/**
 * What a 401 answer to a call means, declared per query or mutation with `meta: { on401 }` — the
 * "Logged out" case. `"sign-in"` (the default): the session ended, go to /auth and back here afterwards.
 * `"home"`: go to / (as /apply-checking does). `"ignore"`: the call handles it (sign-in, where 401 means
 * wrong credentials; the back office, which says "Session expired" itself).
 */
export type On401 = "sign-in" | "home" | "ignore";

export interface CallMeta extends Record<string, unknown> {
  on401?: On401;
}

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: CallMeta;
    mutationMeta: CallMeta;
  }
}

export interface QueryClientHooks {
  /** Called once per failed read or write that answered 401 and whose policy is a redirect. */
  onSignedOut?: (to: Exclude<On401, "ignore">) => void;
}

/** The query defaults: never stale, no refetch on focus, no interval, no retries for reads or writes. */
export function createQueryClient(hooks: QueryClientHooks = {}): QueryClient {
  const handle = (error: unknown, meta: CallMeta | undefined) => {
    if (!isUnauthorized(error)) return;
    const on401 = meta?.on401 ?? "sign-in";
    if (on401 === "ignore") return;
    // A signed-out page (sign-in with a wrong password, say) is left alone: there was no session to lose.
    if (on401 === "sign-in" && !client.getQueryData(CURRENT_USER_KEY)) return;
    hooks.onSignedOut?.(on401);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => handle(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => handle(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
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

/**
 * Puts the answers the server embedded in a first load (web/lib/api.ts answersInPage) into the cache under
 * their URL, the query key of every read among them: the first render already has the data. The server
 * renders the page from the same answers (web/app/server-render.tsx), so hydration finds the same markup.
 */
export function seedFirstReads(client: QueryClient, answers: Record<string, FirstRead>): void {
  const now = Date.now();
  for (const [url, { body }] of Object.entries(answers)) {
    client.setQueryData([url], body, { updatedAt: now });
    PAGE_ANSWER_TIMES.set(url, now);
  }
}
