import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const chatCustomerKey = (userId: string) => ["/api/admin/chats", userId, "customer"] as const;

/** GET /api/admin/chats/:userId/customer: who support is talking to. */
export function getChatCustomer(userId: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/admin/chats/:userId/customer", { params: { userId } }, { signal });
}

export const chatCustomerQuery = (userId: string) =>
  queryOptions({
    queryKey: chatCustomerKey(userId),
    queryFn: ({ signal }) => getChatCustomer(userId, { signal }),
    // Balances and statuses move while a chat is open; a minute is fresh enough to answer from.
    refetchInterval: 60_000,
  });

export function useChatCustomer(userId: string) {
  return useQuery(chatCustomerQuery(userId));
}
