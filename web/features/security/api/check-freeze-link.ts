import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/account/freeze/check: what a "This wasn't me" link would do, spending nothing. */
export function checkFreezeLink(token: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("POST /api/account/freeze/check", { body: { token } }, { signal });
}

export const freezeLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ["/api/account/freeze/check", token] as const,
    queryFn: ({ signal }) => checkFreezeLink(token, { signal }),
    // The link's state is read once per visit: a 4xx is its answer, not a hiccup to retry.
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { on401: "ignore" },
  });

export function useFreezeLinkStatus(token: string | null) {
  return useQuery({ ...freezeLinkQuery(token ?? ""), enabled: token !== null });
}
