import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { type AdminChatMessage, CHAT_POLL_MS } from "@/contract/chat";
import { markConversationReadInCache } from "@/web/features/chat/admin/api/get-chat-conversations";
import { callEndpoint } from "@/web/lib/api";

export const chatThreadKey = (userId: string) => ["/api/admin/chats", userId] as const;

/** GET /api/admin/chats/:userId[?after=id]: one customer's conversation; opening it marks their messages read. */
export function getChatThread(
  userId: string,
  { after, signal }: { after?: number; signal?: AbortSignal } = {},
) {
  return callEndpoint(
    "GET /api/admin/chats/:userId",
    { params: { userId }, query: { after: after ? String(after) : undefined } },
    { signal },
  );
}

export function mergeThread(current: AdminChatMessage[], incoming: AdminChatMessage[]): AdminChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * First load: the whole conversation; then only messages after the newest one held, appended. While a
 * reply held is still unread, the whole conversation is asked for again: the customer reading it changes
 * that older message's readAt, which an `?after=` poll never returns (the receipt would stay "Not read yet").
 */
async function fetchThread(client: QueryClient, userId: string, signal: AbortSignal) {
  const key = chatThreadKey(userId);
  const current = client.getQueryData<AdminChatMessage[]>(key);
  const lastId = current?.at(-1)?.id;
  const awaitsReceipt = current?.some((m) => !m.isFromUser && !m.readAt) ?? false;
  const incoming = await getChatThread(userId, {
    after: current && lastId !== undefined && !awaitsReceipt ? lastId : undefined,
    signal,
  });
  // Merge into what the cache holds now: a reply sent while this poll was in flight is already there.
  const result = current
    ? mergeThread(client.getQueryData<AdminChatMessage[]>(key) ?? current, incoming)
    : incoming;
  markConversationReadInCache(client, userId);
  return result;
}

export const chatThreadQuery = (userId: string) =>
  queryOptions({
    queryKey: chatThreadKey(userId),
    queryFn: ({ client, signal }) => fetchThread(client, userId, signal),
    refetchInterval: CHAT_POLL_MS,
  });

export function useChatThread(userId: string) {
  return useQuery(chatThreadQuery(userId));
}
