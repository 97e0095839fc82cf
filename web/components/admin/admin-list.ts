import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { Page } from "@/contract/pages";
import { apiRequest } from "@/web/lib/api";

/** What an admin table asks the server for: a search and, where the list has statuses, one status (or "all"). */
export interface AdminListFilter {
  q: string;
  status?: string;
  /** The user list only: customer, staff or all. */
  role?: string;
}

export function adminListUrl(base: string, filter: AdminListFilter, cursor: string | null): string {
  const params = new URLSearchParams();
  const q = filter.q.trim();
  if (q) params.set("q", q);
  if (filter.status) params.set("status", filter.status);
  if (filter.role) params.set("role", filter.role);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/**
 * One admin list as an infinite query: pages follow the server's nextCursor. The key starts with the list's
 * path, so invalidating `[path]` after a change refreshes every filter's copy of it. A change can move a row out
 * of the filtered list before mutate's per-call callbacks run (they never do once the row unmounted), so rows
 * act with `mutateAsync(...).then(onDone, onFailed)`.
 */
export function adminListQuery<T>(base: string, filter: AdminListFilter) {
  const normalized = { q: filter.q.trim(), status: filter.status ?? null, role: filter.role ?? null };
  return infiniteQueryOptions({
    queryKey: [base, "page", normalized] as const,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<Page<T>>("GET", adminListUrl(base, filter, pageParam), undefined, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<T>) => last.nextCursor,
    // Customers act while the back office is open: read fresh each time a table opens.
    staleTime: 0,
  });
}

export function useAdminList<T>(
  base: string,
  filter: AdminListFilter,
  options: { refetchInterval?: number; enabled?: boolean } = {},
) {
  // The previous results stay on screen while a new search or filter loads, instead of a skeleton per keystroke.
  const query = useInfiniteQuery({
    ...adminListQuery<T>(base, filter),
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
