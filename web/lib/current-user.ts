import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CurrentUser } from "@/contract/auth";
import { apiRequest, isUnauthorized } from "@/web/lib/api";
import { hasSignedInHint } from "@/web/lib/signed-in-hint";

export const CURRENT_USER_KEY = ["/api/auth/user"] as const;

/**
 * GET /api/auth/user: success means signed in; a 401 means signed out (null), never an error. No retries.
 * Asked only while the server's "signed in" hint cookie is present: without it the visitor is signed out.
 * Lives in lib, not in a feature, because the router, dashboard, settings and admin gate all read it.
 */
export const currentUserQuery = queryOptions({
  queryKey: CURRENT_USER_KEY,
  // apiRequest reads the 401 body to the end; leaving it unread keeps the request open in the browser.
  queryFn: async ({ signal }): Promise<CurrentUser | null> => {
    if (!hasSignedInHint()) return null;
    try {
      return await apiRequest<CurrentUser>("GET", "/api/auth/user", undefined, { signal });
    } catch (error) {
      // The 401 also clears the hint cookie, so the next page load does not probe again.
      if (isUnauthorized(error)) return null;
      throw error;
    }
  },
  retry: false,
});

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** The signed-in user inside the signed-in route set, where the router has already loaded it. */
export function useSignedInUser(): CurrentUser {
  const { data } = useCurrentUser();
  if (!data) throw new Error("useSignedInUser called outside the signed-in route set");
  return data;
}
