import { ArrowLeft, MessagesSquare } from "lucide-react";
import { useState } from "react";
import type { ChatConversation } from "@/contract/chat";
import { useSearch } from "@/web/components/admin/admin-list";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { useChatConversations } from "@/web/features/chat/admin/api/get-chat-conversations";
import { ChatThread } from "@/web/features/chat/admin/components/chat-thread";
import { ConversationList } from "@/web/features/chat/admin/components/conversation-list";
import { CustomerPanel } from "@/web/features/chat/admin/components/customer-panel";
import { cn } from "@/web/lib/cn";
import { formatHandle } from "@/web/lib/format";

/**
 * The admin 'User Chats' tab: the inbox (refreshed every 5 s while the tab is open), the selected
 * conversation with its reply box, and who the customer is. On a phone one column shows at a time.
 */
export default function AdminChatsTab() {
  const search = useSearch();
  const { query: conversations, items } = useChatConversations({ q: search.q });
  // The open conversation stays open when a search or a later page no longer lists it; the list refreshes it.
  const [chosen, setChosen] = useState<ChatConversation | null>(null);
  const selected = chosen ? (items.find((c) => c.userId === chosen.userId) ?? chosen) : null;
  const selectedUserId = selected?.userId ?? null;
  const name = selected ? `${selected.user.firstName} ${selected.user.lastName}` : "";

  return (
    <Card>
      <CardHeader>
        <CardTitle>User Chats</CardTitle>
        <CardDescription>
          Answer customers in the order they wrote; unread conversations are marked.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] xl:grid-cols-[18rem_minmax(0,1fr)_16rem]">
        <div className={cn(selected ? "hidden lg:block" : "block")}>
          <ConversationList
            conversations={items}
            isPending={conversations.isPending}
            isError={conversations.isError}
            onRetry={() => conversations.refetch()}
            selectedUserId={selectedUserId}
            onSelect={setChosen}
            search={search}
            pages={conversations}
          />
        </div>
        {selected ? (
          <>
            <section aria-label={`Conversation with ${name}`} className="grid min-w-0 content-start gap-3">
              <div className="flex items-center gap-2">
                <Button
                  variant="ghost"
                  size="sm"
                  className="-ml-2 lg:hidden"
                  onClick={() => setChosen(null)}
                  aria-label="Back to conversations"
                >
                  <ArrowLeft aria-hidden />
                </Button>
                <div className="min-w-0">
                  <h3 className="truncate text-base font-semibold text-ink">{name}</h3>
                  <p className="truncate text-xs text-ink-muted">
                    {selected.user.email} · {formatHandle(selected.user.pillarTag)}
                  </p>
                </div>
              </div>
              <ChatThread key={selected.userId} userId={selected.userId} customerName={name} />
            </section>
            <aside
              aria-label="Customer details"
              className="min-w-0 border-line lg:col-span-2 lg:border-t lg:pt-6 xl:col-span-1 xl:border-t-0 xl:border-l xl:pt-0 xl:pl-6"
            >
              <CustomerPanel key={selected.userId} userId={selected.userId} />
            </aside>
          </>
        ) : (
          <div className="hidden flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-line px-6 py-16 text-center lg:flex xl:col-span-2">
            <MessagesSquare className="size-8 text-ink-subtle" aria-hidden />
            <p className="text-sm font-medium text-ink">Select a conversation</p>
            <p className="max-w-xs text-sm text-ink-muted">
              Pick a customer on the left to read their messages and reply.
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
