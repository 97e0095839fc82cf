import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { Page } from "@/contract/pages";
import { type ContractKey, callEndpoint, type ReplyOf } from "@/web/lib/api";

/** A GET endpoint answering a page of rows: what an admin table can list (its key, from the contracts). */
export type AdminListKey = {
  [K in ContractKey]: K extends `GET /api/admin/${string}`
    ? ReplyOf<K> extends Page<unknown>
      ? K
      : never
    : never;
}[ContractKey];
type RowOf<K extends AdminListKey> = ReplyOf<K> extends Page<infer T> ? T : never;

/** What an admin table asks the server for: a search and, where the list has statuses, one status (or "all"). */
export interface AdminListFilter {
  q: string;
  status?: string;
  /** The user list only: customer, staff or all. */
  role?: string;
}

/** The list's query: the search, the status and role filters where set, and the page's cursor. */
function listQuery(filter: AdminListFilter, cursor: string | null) {
  return { q: filter.q.trim(), status: filter.status, role: filter.role, cursor };
}

/**
 * One admin list as an infinite query: pages follow the server's nextCursor. The key starts with the list's
 * path, so invalidating `[path]` after a change refreshes every filter's copy of it. A change can move a row out
 * of the filtered list before mutate's per-call callbacks run (they never do once the row unmounted), so rows
 * act with `mutateAsync(...).then(onDone, onFailed)`.
 */
export function adminListQuery<K extends AdminListKey>(key: K, filter: AdminListFilter) {
  const base = key.slice("GET ".length);
  const normalized = { q: filter.q.trim(), status: filter.status ?? null, role: filter.role ?? null };
  return infiniteQueryOptions({
    queryKey: [base, "page", normalized] as const,
    queryFn: ({ pageParam, signal }) =>
      // The key is one of the lists (AdminListKey): its answer is a page of its rows.
      callEndpoint(key, { query: listQuery(filter, pageParam) } as never, { signal }) as unknown as Promise<
        Page<RowOf<K>>
      >,
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<RowOf<K>>) => last.nextCursor,
    // Customers act while the back office is open: read fresh each time a table opens.
    staleTime: 0,
  });
}

export function useAdminList<K extends AdminListKey>(
  key: K,
  filter: AdminListFilter,
  options: { refetchInterval?: number; enabled?: boolean } = {},
) {
  // The previous results stay on screen while a new search or filter loads, instead of a skeleton per keystroke.
  const query = useInfiniteQuery({
    ...adminListQuery(key, filter),
    placeholderData: keepPreviousData,
    ...options,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { query, items };
}

/** The search as typed, and the same value once typing pauses (what goes to the server). */
export function useSearch(delayMs = 300) {
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text.trim()), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return { text, setText, q: debounced };
}

/** A list's search and status filter ("all" shows every status), and whether either narrows the list. */
export function useListFilter<F extends string>(initial: F) {
  const [status, setStatus] = useState<F>(initial);
  const search = useSearch();
  return { status, setStatus, search, isFiltered: status !== "all" || search.q !== "" };
}

export type ListFilter<F extends string> = ReturnType<typeof useListFilter<F>>;
