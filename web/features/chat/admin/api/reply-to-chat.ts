import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type AdminChatMessage, CHAT_MESSAGES } from "@/contract/chat";
import { toast } from "@/web/components/ui/use-toast";
import { CHAT_INBOX_PAGES_KEY } from "@/web/features/chat/admin/api/get-chat-conversations";
import { chatThreadKey, mergeThread } from "@/web/features/chat/admin/api/get-chat-thread";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/chats/:userId/reply: answers the stored reply; a resend with the key replays it. */
export function replyToChat({
  userId,
  message,
  idempotencyKey,
}: {
  userId: string;
  message: string;
  idempotencyKey: string;
}) {
  return callEndpoint(
    "POST /api/admin/chats/:userId/reply",
    { params: { userId }, body: { message } },
    { headers: { "Idempotency-Key": idempotencyKey } },
  );
}

export function useReplyToChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyToChat,
    onSuccess: (sent, { userId }) => {
      toast({ title: CHAT_MESSAGES.replySent });
      queryClient.setQueryData<AdminChatMessage[]>(chatThreadKey(userId), (current) =>
        mergeThread(current ?? [], [sent]),
      );
      return queryClient.invalidateQueries({ queryKey: CHAT_INBOX_PAGES_KEY });
    },
  });
}
