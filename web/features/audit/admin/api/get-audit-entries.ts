import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { AuditEntry } from "@/contract/audit";
import type { Page } from "@/contract/pages";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_AUDIT_KEY = ["/api/admin/audit"] as const;

export interface AuditFilters {
  actor: string;
  customer: string;
  action: string;
  from: string;
  to: string;
}

function auditUrl(filters: AuditFilters, cursor: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim()) params.set(key, value.trim());
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `${ADMIN_AUDIT_KEY[0]}?${query}` : ADMIN_AUDIT_KEY[0];
}

/** GET /api/admin/audit: the audit search, newest first, a page at a time. */
export function auditEntriesQuery(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: [ADMIN_AUDIT_KEY[0], "page", filters] as const,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<Page<AuditEntry>>("GET", auditUrl(filters, pageParam), undefined, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<AuditEntry>) => last.nextCursor,
    staleTime: 0,
    // A bad filter (400) is shown under the form; retrying would not change the answer.
    retry: false,
  });
}

export function useAuditEntries(filters: AuditFilters) {
  const query = useInfiniteQuery({ ...auditEntriesQuery(filters), placeholderData: keepPreviousData });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { query, items };
}
