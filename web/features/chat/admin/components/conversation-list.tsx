import { AlertCircle, CornerUpLeft, Inbox, Search } from "lucide-react";
import { CHAT_PREVIEW_LENGTH, type ChatConversation } from "@/contract/chat";
import { LoadMore } from "@/web/components/admin/list-controls";
import { noMatchSoFar } from "@/web/components/admin/list-states";
import { formatChatTime } from "@/web/components/chat/format-chat-time";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { formatHandle, initials } from "@/web/lib/format";

/** The first 30 characters of the last message (by character, so an emoji is never cut in half). */
export function previewOf(message: string): string {
  const chars = Array.from(message.replace(/\s+/g, " "));
  return chars.length > CHAT_PREVIEW_LENGTH
    ? `${chars.slice(0, CHAT_PREVIEW_LENGTH).join("")}...`
    : chars.join("");
}

function ConversationButton({
  conversation: c,
  selected,
  onSelect,
}: {
  conversation: ChatConversation;
  selected: boolean;
  onSelect: () => void;
}) {
  const name = `${c.user.firstName} ${c.user.lastName}`;
  const unread = c.unreadCount > 0;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? "true" : undefined}
      className={cn(
        "flex w-full items-start gap-3 rounded-lg px-3 py-2.5 text-left transition-colors",
        selected ? "bg-brand-50 ring-1 ring-brand-200" : "hover:bg-canvas",
      )}
    >
      {/* The button's name is its visible text (name, time, tag, preview, unread count), in reading order, so a
          voice user who says what they see reaches it (axe label-content-name-mismatch). */}
      <span
        aria-hidden
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800"
      >
        {initials(c.user.firstName, c.user.lastName)}
      </span>
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="flex items-baseline justify-between gap-2">
          <span className={cn("truncate text-sm text-ink", unread ? "font-semibold" : "font-medium")}>
            {name}
          </span>
          <time
            dateTime={c.lastMessage.createdAt}
            className="shrink-0 text-[11px] text-ink-subtle tabular-nums"
          >
            {formatChatTime(c.lastMessage.createdAt)}
          </time>
        </span>
        <span className="truncate text-xs text-ink-subtle">{formatHandle(c.user.pillarTag)}</span>
        <span className="flex items-center justify-between gap-2">
          <span
            className={cn("flex min-w-0 items-center gap-1 text-xs", unread ? "text-ink" : "text-ink-muted")}
          >
            {c.lastMessage.isFromUser ? null : (
              <CornerUpLeft className="size-3 shrink-0 text-ink-subtle" aria-label="Support replied" />
            )}
            <span className="truncate">{previewOf(c.lastMessage.message)}</span>
          </span>
          {unread ? (
            <span className="flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-800 px-1.5 text-[11px] font-semibold text-white tabular-nums">
              {c.unreadCount}
            </span>
          ) : null}
          {unread ? <span className="sr-only"> unread</span> : null}
        </span>
      </span>
    </button>
  );
}

interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

export function ConversationList({
  conversations,
  isPending,
  isError,
  onRetry,
  selectedUserId,
  onSelect,
  search,
  pages,
}: {
  conversations: ChatConversation[];
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  selectedUserId: string | null;
  onSelect: (conversation: ChatConversation) => void;
  search: { text: string; setText: (text: string) => void; q: string };
  pages: PagedQuery;
}) {
  return (
    <section aria-labelledby="chat-inbox-heading" className="flex min-h-0 flex-col gap-3">
      <div className="flex items-center justify-between gap-2 px-1">
        <h3 id="chat-inbox-heading" className="text-sm font-semibold text-ink">
          Conversations
        </h3>
      </div>
      <div className="relative">
        <label htmlFor="admin-chat-search" className="sr-only">
          Search conversations
        </label>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
          aria-hidden
        />
        <Input
          id="admin-chat-search"
          type="search"
          placeholder="Search name, email or tag"
          className="h-9 pl-9"
          value={search.text}
          onChange={(e) => search.setText(e.target.value)}
        />
      </div>
      {isPending ? (
        <ul className="grid gap-2" aria-label="Loading conversations">
          {[0, 1, 2].map((i) => (
            <li key={i} className="flex items-center gap-3 px-3 py-2">
              <Skeleton className="size-9 rounded-full" />
              <div className="grid flex-1 gap-1.5">
                <Skeleton className="h-4 w-32" />
                <Skeleton className="h-3 w-44 max-w-full" />
              </div>
            </li>
          ))}
        </ul>
      ) : isError && conversations.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative">
          <p className="flex items-center gap-2">
            <AlertCircle className="size-4" aria-hidden />
            We couldn't load the conversations.
          </p>
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : conversations.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
          <Inbox className="size-8 text-ink-subtle" aria-hidden />
          <p className="text-sm font-medium text-ink">
            {pages.hasNextPage
              ? noMatchSoFar("conversations").title
              : search.q
                ? "No conversations match your search"
                : "No conversations yet"}
          </p>
          <p className="text-sm text-ink-muted">
            {pages.hasNextPage
              ? noMatchSoFar("conversations").text
              : search.q
                ? "Try a different name, email or tag."
                : "Messages from customers will appear here."}
          </p>
          <LoadMore query={pages} what="conversations" />
        </div>
      ) : (
        <div className="grid max-h-[32rem] gap-3 overflow-y-auto pr-1">
          <ul className="grid gap-1">
            {conversations.map((c) => (
              <li key={c.userId}>
                <ConversationButton
                  conversation={c}
                  selected={c.userId === selectedUserId}
                  onSelect={() => onSelect(c)}
                />
              </li>
            ))}
          </ul>
          <LoadMore query={pages} what="conversations" />
        </div>
      )}
    </section>
  );
}
