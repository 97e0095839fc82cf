import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CurrentUser } from "@/contract/auth";
import { getQueryFn } from "@/web/lib/api";

export const CURRENT_USER_KEY = ["/api/auth/user"] as const;

/** GET /api/auth/user: success means signed in; a 401 means signed out (null), never an error. No retries. */
export const currentUserQuery = queryOptions({
  queryKey: CURRENT_USER_KEY,
  queryFn: getQueryFn<CurrentUser>({ on401: "returnNull" }),
  retry: false,
});

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}
