import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const STATEMENT_MONTHS_KEY = ["/api/statements"] as const;

/** GET /api/statements: checking's months and the savings statements ready to download, newest first. */
export function findStatementMonths({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/statements", {}, { signal });
}

export const statementMonthsQuery = queryOptions({
  queryKey: STATEMENT_MONTHS_KEY,
  queryFn: ({ signal }) => findStatementMonths({ signal }),
});

export function useStatementMonths() {
  return useQuery(statementMonthsQuery);
}
