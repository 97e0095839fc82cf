import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint, refetchOnMountUnlessFromPage } from "@/web/lib/api";
import { livePoll } from "@/web/lib/live-updates";

export const UNREAD_REPLIES_KEY = ["/api/chat/unread"] as const;
/** A badge, not a conversation: every 10 s is plenty, and each poll is one primary-key read. */
const UNREAD_POLL_MS = 10_000;

/** GET /api/chat/unread: support replies the user has not read yet. Reading it marks nothing read. */
export function getUnreadReplies({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/chat/unread", {}, { signal });
}

export const unreadRepliesQuery = queryOptions({
  queryKey: UNREAD_REPLIES_KEY,
  queryFn: ({ signal }) => getUnreadReplies({ signal }),
  refetchInterval: livePoll(UNREAD_POLL_MS),
  // Opening /contact reads the replies; coming back to the dashboard must not show a stale badge.
  refetchOnMount: refetchOnMountUnlessFromPage("always"),
});

export function useUnreadReplies() {
  return useQuery(unreadRepliesQuery);
}
