import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const SESSIONS_KEY = ["/api/auth/sessions"] as const;

/** GET /api/auth/sessions: the signed-in user's active sessions, the current one flagged. */
export function getSessions({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/auth/sessions", {}, { signal });
}

export const sessionsQuery = queryOptions({
  queryKey: SESSIONS_KEY,
  queryFn: ({ signal }) => getSessions({ signal }),
  // Sessions come and go on other devices: read fresh each time the card mounts.
  staleTime: 0,
});

export function useSessions() {
  return useQuery(sessionsQuery);
}
