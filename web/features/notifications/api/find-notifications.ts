import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const NOTIFICATIONS_KEY = ["/api/notifications"] as const;

/** GET /api/notifications: newest first, a page at a time (keyset on `before`). */
export function useNotifications(onlyUnread: boolean) {
  return useInfiniteQuery({
    queryKey: [...NOTIFICATIONS_KEY, { onlyUnread }],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        "GET /api/notifications",
        { query: { before: pageParam ?? undefined, unread: onlyUnread ? "true" : undefined } },
        { signal },
      ),
    getNextPageParam: (last) => last.nextBefore,
    staleTime: 0,
  });
}

/** Everything under /api/notifications (the list and the bell's count) is read again after a mark. */
function useRefreshNotifications() {
  const client = useQueryClient();
  return () =>
    client.invalidateQueries({
      predicate: (q) => typeof q.queryKey[0] === "string" && q.queryKey[0].startsWith("/api/notifications"),
    });
}

export function useMarkNotificationRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (id: string) => callEndpoint("POST /api/notifications/:id/read", { params: { id } }),
    onSuccess: refresh,
  });
}

export function useMarkAllNotificationsRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: () => callEndpoint("POST /api/notifications/read-all"),
    onSuccess: refresh,
  });
}
