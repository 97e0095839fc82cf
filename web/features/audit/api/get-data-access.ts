import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { callEndpoint } from "@/web/lib/api";

export const DATA_ACCESS_KEY = ["/api/account/data-access"] as const;
const PAGE_SIZE = 10;

/** GET /api/account/data-access: who (by role) looked at or acted on the customer's data, newest first. */
export const dataAccessQuery = infiniteQueryOptions({
  queryKey: DATA_ACCESS_KEY,
  queryFn: ({ pageParam, signal }) =>
    callEndpoint(
      "GET /api/account/data-access",
      { query: { limit: PAGE_SIZE, cursor: pageParam ?? undefined } },
      { signal },
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
  staleTime: 0,
});

export function useDataAccess() {
  const query = useInfiniteQuery(dataAccessQuery);
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { query, items };
}
