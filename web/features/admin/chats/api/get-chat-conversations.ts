import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { CHAT_POLL_MS, type ChatConversation } from "@/contract/chat";
import { ApiError } from "@/web/lib/api";

export const CHAT_CONVERSATIONS_KEY = ["/api/admin/chats"] as const;

export interface ChatInbox {
  etag: string | null;
  conversations: ChatConversation[];
}

async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const { message, ...flags } = JSON.parse(text) as Record<string, unknown>;
    return new ApiError(res.status, typeof message === "string" ? message : res.statusText, flags);
  } catch {
    return new ApiError(res.status, text || `${res.status}: ${res.statusText}`);
  }
}

/**
 * GET /api/admin/chats as a conditional request: the ETag of the copy held goes out as If-None-Match,
 * and a 304 keeps that copy, so an inbox left open polls for a few bytes while nothing changes.
 */
async function fetchChatInbox(client: QueryClient, signal: AbortSignal): Promise<ChatInbox> {
  const current = client.getQueryData<ChatInbox>(CHAT_CONVERSATIONS_KEY);
  const res = await fetch("/api/admin/chats", {
    credentials: "include",
    signal,
    headers: current?.etag ? { "If-None-Match": current.etag } : {},
  });
  if (res.status === 304 && current) return current;
  if (!res.ok) throw await toApiError(res);
  return { etag: res.headers.get("etag"), conversations: (await res.json()) as ChatConversation[] };
}

export const chatInboxQuery = queryOptions({
  queryKey: CHAT_CONVERSATIONS_KEY,
  queryFn: ({ client, signal }) => fetchChatInbox(client, signal),
  refetchInterval: CHAT_POLL_MS,
});

export function useChatConversations() {
  return useQuery({ ...chatInboxQuery, select: (inbox) => inbox.conversations });
}

/** The inbox shows a conversation as read the moment support has it open. */
export function markConversationReadInCache(client: QueryClient, userId: string): boolean {
  const inbox = client.getQueryData<ChatInbox>(CHAT_CONVERSATIONS_KEY);
  if (!inbox?.conversations.some((c) => c.userId === userId && c.unreadCount > 0)) return false;
  client.setQueryData<ChatInbox>(CHAT_CONVERSATIONS_KEY, {
    // Drop the ETag: the next poll must fetch, since the server's counts just changed.
    etag: null,
    conversations: inbox.conversations.map((c) => (c.userId === userId ? { ...c, unreadCount: 0 } : c)),
  });
  return true;
}
