import { AlertCircle, Check, CheckCheck, Send } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { type AdminChatMessage, CHAT_MESSAGE_MAX, CHAT_MESSAGES } from "@/contract/chat";
import { formatChatTime } from "@/web/components/chat/format-chat-time";
import { sendOnEnter, useChatDraft } from "@/web/components/chat/use-chat-draft";
import { Button } from "@/web/components/ui/button";
import { Textarea } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useChatThread } from "@/web/features/chat/admin/api/get-chat-thread";
import { useReplyToChat } from "@/web/features/chat/admin/api/reply-to-chat";
import { cn } from "@/web/lib/cn";

function ThreadMessage({ message: m, customerName }: { message: AdminChatMessage; customerName: string }) {
  // Support's own replies sit on the right here, the customer's on the left: the mirror of /contact.
  const fromSupport = !m.isFromUser;
  return (
    <li className={cn("flex max-w-[85%] flex-col gap-1", fromSupport ? "items-end self-end" : "items-start")}>
      <span className="px-1 text-xs font-medium text-ink-muted">
        {fromSupport ? "Support" : customerName}
      </span>
      <p
        className={cn(
          "rounded-2xl px-3.5 py-2 text-sm leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere]",
          fromSupport
            ? "rounded-br-sm bg-brand-800 text-white"
            : "rounded-bl-sm border border-line bg-canvas text-ink",
        )}
      >
        {m.message}
      </p>
      <span className="flex items-center gap-1 px-1 text-xs text-ink-subtle tabular-nums">
        <time dateTime={m.createdAt}>{formatChatTime(m.createdAt)}</time>
        {fromSupport ? (
          m.readAt ? (
            <>
              <CheckCheck className="size-3.5 text-brand-600" aria-hidden />
              <span className="sr-only">Read by customer</span>
            </>
          ) : (
            <>
              <Check className="size-3.5" aria-hidden />
              <span className="sr-only">Not read yet</span>
            </>
          )
        ) : null}
      </span>
    </li>
  );
}

/** One customer's conversation, refreshed every 5 s while open, with the reply box under it. */
export function ChatThread({ userId, customerName }: { userId: string; customerName: string }) {
  const thread = useChatThread(userId);
  const reply = useReplyToChat();
  const chat = useChatDraft();
  const scroller = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const count = thread.data?.length ?? 0;

  useEffect(() => {
    const el = scroller.current;
    if (el && count > 0) el.scrollTop = el.scrollHeight;
  }, [count]);

  const onSubmit = () => {
    const message = chat.takeMessage();
    if (message === null) return;
    reply.mutate(
      { userId, message, idempotencyKey: chat.keyFor(`${userId}\n${message}`) },
      {
        onSuccess: () => chat.setDraft(""),
        onError: (error) =>
          toast({
            title: "Error",
            description: error.message || CHAT_MESSAGES.replyFailed,
            variant: "destructive",
          }),
        onSettled: (_sent, error) => chat.afterSend(error),
      },
    );
  };

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div
        ref={scroller}
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label={`Conversation with ${customerName}`}
        aria-busy={thread.isPending}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling log must be reachable by keyboard to scroll it.
        tabIndex={0}
        className="max-h-96 min-h-48 overflow-y-auto rounded-lg border border-line bg-surface"
      >
        {thread.isPending ? (
          <div className="flex flex-col gap-3 p-4" aria-hidden>
            <Skeleton className="h-10 w-2/3 rounded-2xl" />
            <Skeleton className="h-10 w-1/2 self-end rounded-2xl" />
          </div>
        ) : thread.isError && count === 0 ? (
          <div className="flex flex-col items-center gap-3 p-6 text-center text-sm">
            <AlertCircle className="size-6 text-negative" aria-hidden />
            <p className="text-ink">We couldn't load this conversation.</p>
            <Button variant="secondary" size="sm" onClick={() => thread.refetch()}>
              Try again
            </Button>
          </div>
        ) : count === 0 ? (
          <p className="p-6 text-center text-sm text-ink-muted">
            No messages yet. Write first to start the conversation.
          </p>
        ) : (
          <ol className="flex flex-col gap-3 p-4">
            {thread.data?.map((m) => (
              <ThreadMessage key={m.id} message={m} customerName={customerName} />
            ))}
          </ol>
        )}
      </div>
      <form
        className="grid gap-1.5"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <label htmlFor={`${hintId}-reply`} className="sr-only">
          Reply to {customerName}
        </label>
        <div className="flex items-end gap-2">
          <Textarea
            id={`${hintId}-reply`}
            ref={chat.textarea}
            rows={2}
            value={chat.draft}
            onChange={(e) => chat.onChange(e.target.value)}
            onKeyDown={(e) => sendOnEnter(e, reply.isPending, onSubmit)}
            placeholder="Type your reply..."
            maxLength={CHAT_MESSAGE_MAX}
            disabled={reply.isPending}
            aria-invalid={chat.error ? true : undefined}
            aria-describedby={chat.error ? `${hintId}-error ${hintId}` : hintId}
            className="max-h-32 min-h-16 flex-1 resize-y"
          />
          <Button type="submit" disabled={reply.isPending || chat.draft.trim().length === 0}>
            {reply.isPending ? (
              <Spinner className="size-4 text-white" label="Sending" />
            ) : (
              <Send aria-hidden />
            )}
            Send Reply
          </Button>
        </div>
        {chat.error ? (
          <p id={`${hintId}-error`} className="text-sm text-negative">
            {chat.error}
          </p>
        ) : null}
        <p id={hintId} className="text-xs text-ink-subtle">
          Press Enter to send, Shift+Enter for new line
        </p>
      </form>
    </div>
  );
}
