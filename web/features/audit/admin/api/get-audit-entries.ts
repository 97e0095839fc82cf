import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { callEndpoint, hrefOf } from "@/web/lib/api";

export const ADMIN_AUDIT_KEY = ["/api/admin/audit"] as const;

export interface AuditFilters {
  actor: string;
  customer: string;
  action: string;
  from: string;
  to: string;
}

/** The filters as sent: trimmed, a blank one left out of the URL. */
function trimmed({ actor, customer, action, from, to }: AuditFilters): AuditFilters {
  return {
    actor: actor.trim(),
    customer: customer.trim(),
    action: action.trim(),
    from: from.trim(),
    to: to.trim(),
  };
}

/** Same-origin download link for the current filters: the whole search as CSV. */
export const auditCsvHref = (filters: AuditFilters) =>
  hrefOf("GET /api/admin/audit.csv", { query: trimmed(filters) });

/** GET /api/admin/audit: the audit search, newest first, a page at a time. */
export function auditEntriesQuery(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: [ADMIN_AUDIT_KEY[0], "page", filters] as const,
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        "GET /api/admin/audit",
        { query: { ...trimmed(filters), cursor: pageParam ?? undefined } },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
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
