import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { CHAT_POLL_MS, type ChatConversation } from "@/contract/chat";
import type { Page } from "@/contract/pages";
import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export const CHAT_CONVERSATIONS_KEY = ["/api/admin/chats"] as const;
/** Every search's pages of the inbox, and not the threads (keyed ["/api/admin/chats", userId]). */
export const CHAT_INBOX_PAGES_KEY = [CHAT_CONVERSATIONS_KEY[0], "page"] as const;

/**
 * GET /api/admin/chats, a page at a time and polled while the tab is open. Each page is a conditional request
 * (apiRequest sends the ETag it holds for that URL), so an idle inbox polls for a few bytes per page.
 */
export function useChatConversations(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/chats", filter, { refetchInterval: CHAT_POLL_MS });
}

/** The inbox shows a conversation as read the moment support has it open, in every search's copy. */
export function markConversationReadInCache(client: QueryClient, userId: string): void {
  client.setQueriesData<InfiniteData<Page<ChatConversation>>>({ queryKey: CHAT_INBOX_PAGES_KEY }, (data) => {
    if (!data?.pages.some((p) => p.items.some((c) => c.userId === userId && c.unreadCount > 0))) return data;
    return {
      ...data,
      pages: data.pages.map((p) => ({
        ...p,
        items: p.items.map((c) => (c.userId === userId ? { ...c, unreadCount: 0 } : c)),
      })),
    };
  });
}
