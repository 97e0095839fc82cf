import { MessageCircle } from "lucide-react";
import { CHAT_MESSAGES } from "@/contract/chat";
import { useChatDraft } from "@/web/components/chat/use-chat-draft";
import { SignedInPage } from "@/web/components/signed-in-page";
import { Card, CardHeader, CardTitle } from "@/web/components/ui/card";
import { toast } from "@/web/components/ui/use-toast";
import { useChatMessages } from "@/web/features/chat/api/get-chat-messages";
import { useSendChatMessage } from "@/web/features/chat/api/send-chat-message";
import { ChatComposer } from "@/web/features/chat/components/chat-composer";
import { ChatMessageList } from "@/web/features/chat/components/chat-message-list";
import { QuickHelpCard } from "@/web/features/chat/components/quick-help-card";
import { SupportHoursCard } from "@/web/features/chat/components/support-hours-card";
import { SupportStatusBadge, useSupportOpen } from "@/web/features/chat/components/support-status-badge";
import { useSignedInUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

export default function ContactPage() {
  const user = useSignedInUser();
  const isSupportOpen = useSupportOpen();
  useDocumentTitle("Contact Support");
  const messages = useChatMessages();
  const send = useSendChatMessage();
  const chat = useChatDraft();

  const onSubmit = () => {
    const message = chat.takeMessage();
    if (message === null) return;
    send.mutate(
      { message, idempotencyKey: chat.keyFor(message) },
      {
        onSuccess: () => {
          chat.setDraft("");
          toast({ title: CHAT_MESSAGES.sent, description: CHAT_MESSAGES.sentDescription });
        },
        onError: (error) => {
          toast({
            title: "Error",
            description: error.message || CHAT_MESSAGES.sendFailed,
            variant: "destructive",
          });
        },
        onSettled: (_sent, error) => chat.afterSend(error),
      },
    );
  };

  const onPickTopic = (topic: string) => {
    chat.setDraft(`Hi, I need help with ${topic.toLowerCase()}.`);
    chat.refocus();
  };

  return (
    <SignedInPage
      user={user}
      back={{ href: "/settings", label: "Back to Settings" }}
      title="Contact Support"
      description="Get help from our support team"
    >
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card className="flex h-[600px] min-w-0 flex-col overflow-hidden lg:col-span-2">
          <CardHeader className="flex-row items-center justify-between gap-3 pb-4">
            <CardTitle className="flex items-center gap-2">
              <MessageCircle className="size-5 text-brand-700" aria-hidden />
              Live Chat
            </CardTitle>
            <SupportStatusBadge isOpen={isSupportOpen} />
          </CardHeader>
          {isSupportOpen ? null : (
            <p className="-mt-2 px-6 pb-3 text-xs text-ink-muted">
              Leave a message any time; we reply during support hours.
            </p>
          )}
          <ChatMessageList
            messages={messages.data}
            isPending={messages.isPending}
            isError={messages.isError}
            onRetry={() => messages.refetch()}
          />
          <div className="mt-auto border-t border-line">
            <ChatComposer
              value={chat.draft}
              onChange={chat.onChange}
              onSubmit={onSubmit}
              isSending={send.isPending}
              error={chat.error}
              textareaRef={chat.textarea}
            />
          </div>
        </Card>
        <div className="grid gap-6">
          <SupportHoursCard />
          <QuickHelpCard onPickTopic={onPickTopic} />
        </div>
      </div>
    </SignedInPage>
  );
}
