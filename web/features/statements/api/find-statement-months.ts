import { queryOptions, useQuery } from "@tanstack/react-query";
import type { StatementList } from "@/contract/statements";
import { apiRequest } from "@/web/lib/api";

export const STATEMENT_MONTHS_KEY = ["/api/statements"] as const;

/** GET /api/statements: checking's months and the savings statements ready to download, newest first. */
export function findStatementMonths({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<StatementList>("GET", "/api/statements", undefined, { signal });
}

export const statementMonthsQuery = queryOptions({
  queryKey: STATEMENT_MONTHS_KEY,
  queryFn: ({ signal }) => findStatementMonths({ signal }),
});

export function useStatementMonths() {
  return useQuery(statementMonthsQuery);
}
