import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChatMessage } from "@/contract/chat";
import { CHAT_MESSAGES_KEY, mergeChatMessages } from "@/web/features/chat/api/get-chat-messages";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/chat/send: answers the stored message (trimmed by the server); a resend with the key replays it. */
export function sendChatMessage({ message, idempotencyKey }: { message: string; idempotencyKey: string }) {
  return callEndpoint(
    "POST /api/chat/send",
    { body: { message } },
    { headers: { "Idempotency-Key": idempotencyKey } },
  );
}

export function useSendChatMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendChatMessage,
    onSuccess: (sent) => {
      queryClient.setQueryData<ChatMessage[]>(CHAT_MESSAGES_KEY, (current) =>
        mergeChatMessages(current ?? [], [sent]),
      );
      return queryClient.invalidateQueries({ queryKey: CHAT_MESSAGES_KEY });
    },
  });
}
