import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { CHAT_POLL_MS, type ChatMessage } from "@/contract/chat";
import { callEndpoint } from "@/web/lib/api";
import { livePoll } from "@/web/lib/live-updates";

export const CHAT_MESSAGES_KEY = ["/api/chat/messages"] as const;

/** GET /api/chat/messages[?after=id]: the signed-in user's conversation, oldest first. */
export function getChatMessages({ after, signal }: { after?: number; signal?: AbortSignal } = {}) {
  return callEndpoint(
    "GET /api/chat/messages",
    { query: { after: after ? String(after) : undefined } },
    { signal },
  );
}

/** Appends newer messages to what the cache holds, by id, so a message seen twice shows once. */
export function mergeChatMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The first load fetches the whole conversation; every poll after that asks only for messages newer than
 * the last one held (`?after=`) and appends them, so a quiet conversation costs an empty list.
 */
async function fetchChatMessages(client: QueryClient, signal: AbortSignal): Promise<ChatMessage[]> {
  const current = client.getQueryData<ChatMessage[]>(CHAT_MESSAGES_KEY);
  const lastId = current?.at(-1)?.id;
  if (!current || lastId === undefined) return getChatMessages({ signal });
  const newer = await getChatMessages({ after: lastId, signal });
  // Merge into what the cache holds now: a message sent while this poll was in flight is already there.
  return mergeChatMessages(client.getQueryData<ChatMessage[]>(CHAT_MESSAGES_KEY) ?? current, newer);
}

export const chatMessagesQuery = queryOptions({
  queryKey: CHAT_MESSAGES_KEY,
  queryFn: ({ client, signal }) => fetchChatMessages(client, signal),
  // Only while the pushed stream is down (decision 034): a reply arrives as a "chat" notice.
  refetchInterval: livePoll(CHAT_POLL_MS),
});

export function useChatMessages() {
  return useQuery(chatMessagesQuery);
}
