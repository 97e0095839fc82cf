import { AlertCircle, Headset, MessageCircle } from "lucide-react";
import { useEffect, useRef } from "react";
import type { ChatMessage } from "@/contract/chat";
import { formatChatTime } from "@/web/components/chat/format-chat-time";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";

function MessageBubble({ message }: { message: ChatMessage }) {
  const own = message.isFromUser;
  return (
    <li
      className={cn(
        "flex max-w-[85%] flex-col gap-1 sm:max-w-[75%]",
        own ? "items-end self-end" : "items-start",
      )}
    >
      {own ? (
        <span className="sr-only">You:</span>
      ) : (
        <span className="flex items-center gap-1 text-xs font-medium text-brand-700">
          <Headset className="size-3.5" aria-hidden />
          Support
        </span>
      )}
      <p
        className={cn(
          "rounded-2xl px-3.5 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap [overflow-wrap:anywhere]",
          own
            ? "rounded-br-sm bg-brand-800 text-white"
            : "rounded-bl-sm border border-line bg-canvas text-ink",
        )}
      >
        {message.message}
      </p>
      <time dateTime={message.createdAt} className="px-1 text-xs text-ink-subtle tabular-nums">
        {formatChatTime(message.createdAt)}
      </time>
    </li>
  );
}

function LoadingMessages() {
  return (
    <div className="flex flex-col gap-4 p-4" aria-hidden>
      <Skeleton className="h-10 w-2/3 rounded-2xl" />
      <Skeleton className="h-14 w-1/2 self-end rounded-2xl" />
      <Skeleton className="h-10 w-3/5 rounded-2xl" />
    </div>
  );
}

/**
 * The conversation, oldest first, kept scrolled to the newest message. A polite live region: a screen
 * reader announces a new reply without interrupting what the user is typing.
 */
export function ChatMessageList({
  messages,
  isPending,
  isError,
  onRetry,
}: {
  messages: ChatMessage[] | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = messages?.length ?? 0;
  const hasScrolled = useRef(false);

  useEffect(() => {
    const el = scroller.current;
    if (!el || count === 0) return;
    el.scrollTo({ top: el.scrollHeight, behavior: hasScrolled.current ? "smooth" : "auto" });
    hasScrolled.current = true;
  }, [count]);

  return (
    <div
      ref={scroller}
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label="Conversation with support"
      aria-busy={isPending}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling log must be reachable by keyboard to scroll it.
      tabIndex={0}
      className="max-h-[400px] min-h-0 flex-1 overflow-y-auto overscroll-contain border-t border-line bg-surface focus-visible:outline-offset-[-2px]"
    >
      {isPending ? (
        <LoadingMessages />
      ) : isError && count === 0 ? (
        <div className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center">
          <AlertCircle className="size-8 text-negative" aria-hidden />
          <p className="text-sm font-medium text-ink">We couldn't load your messages</p>
          <p className="text-sm text-ink-muted">Check your connection and try again.</p>
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : count === 0 ? (
        <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center">
          <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <MessageCircle className="size-6" aria-hidden />
          </span>
          <p className="text-sm font-semibold text-ink">Start a conversation</p>
          <p className="max-w-xs text-sm text-ink-muted">Send us a message and we'll get back to you soon!</p>
        </div>
      ) : (
        <ol className="flex flex-col gap-4 p-4">
          {messages?.map((m) => (
            <MessageBubble key={m.id} message={m} />
          ))}
        </ol>
      )}
    </div>
  );
}
