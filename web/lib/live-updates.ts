import type { QueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { EVENT_TOPICS, type EventTopic } from "@/contract/event-topics";
import { forgetConditionalCopies } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";

/**
 * Which reads each pushed topic names, by URL (every read's query key is its URL): a notice refetches only
 * these, and only while a screen shows them (invalidation refetches active queries).
 */
export const TOPIC_READS: Record<EventTopic, readonly string[]> = {
  transactions: ["/api/transactions", "/api/transfers", "/api/transfer/limits", "/api/statements"],
  summary: ["/api/account/summary", "/api/transfer/limits"],
  kyc: ["/api/kyc"],
  account: ["/api/auth/user", "/api/kyc", "/api/account/summary"],
  chat: ["/api/chat"],
  // A scheduled run makes a transfer and tells the customer (a skipped one only tells): its list and "Coming up".
  transfers: ["/api/transfers", "/api/transfer/limits", "/api/transactions", "/api/schedules"],
  notifications: ["/api/notifications", "/api/schedules"],
  requests: ["/api/transfer/requests"],
  // A USDC deposit the watcher saw (pending), credited, held or taken back by a reorg: the Add money page.
  deposits: ["/api/deposits"],
  // A move between checking and savings, or interest credited: the savings card and page, and the statements.
  savings: ["/api/savings", "/api/statements"],
};

const isUnder = (key: unknown, prefixes: readonly string[]) =>
  typeof key === "string" &&
  prefixes.some((p) => key === p || key.startsWith(`${p}/`) || key.startsWith(`${p}?`));

export function refetchTopics(client: QueryClient, topics: readonly EventTopic[]): Promise<void> {
  const prefixes = [...new Set(topics.flatMap((t) => TOPIC_READS[t] ?? []))];
  if (prefixes.length === 0) return Promise.resolve();
  // Asked afresh, not "has it changed since this ETag?": an instance that has not yet heard of the change
  // would answer 304 from its memory, and with the polls stopped the screen would keep the old answer.
  forgetConditionalCopies((url) => isUnder(url, prefixes));
  return client.invalidateQueries({ predicate: (q) => isUnder(q.queryKey[0], prefixes) });
}

// Stream health: the polls read it.
let isHealthy = false;
const listeners = new Set<() => void>();

function setHealthy(next: boolean) {
  if (next === isHealthy) return;
  isHealthy = next;
  for (const listener of listeners) listener();
}

export const liveStore = {
  get: () => isHealthy,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useIsLive(): boolean {
  return useSyncExternalStore(liveStore.subscribe, liveStore.get, () => false);
}

/**
 * A poll's `refetchInterval`: none while the stream is healthy (it says what changed), the spec's interval
 * when it is not. Read at each fetch; losing the stream refetches the named reads, which restarts their polls.
 */
export const livePoll = (ms: number) => () => (isHealthy ? false : ms);

/**
 * Query reads a `refetchInterval` only when a read is fetched or its options change, so a poll already counting
 * down when the stream came up would still fire once (a server-drawn page's reads, which the resumed stream does
 * not ask again, polled once 10 s later). Each observer's options are set again, unchanged, on every change of
 * health: that re-reads `livePoll` and clears or restarts its timer at once (nothing is fetched by it).
 */
function reschedulePolls(client: QueryClient) {
  for (const query of client.getQueryCache().getAll()) {
    for (const observer of query.observers) observer.setOptions(observer.options);
  }
}

type EventSourceLike = Pick<EventSource, "close" | "addEventListener" | "readyState">;
export interface LiveUpdatesOptions {
  url?: string;
  createEventSource?: (url: string) => EventSourceLike;
  /** After the stream is refused or given up (429, 401, an outage), another try this much later. */
  retryMs?: number;
  /**
   * The notice number the page's reads were made after (a server-drawn first load): the first stream starts
   * there, so what changed meanwhile is replayed rather than every read asked again.
   */
  from?: string;
}

/**
 * One EventSource for this tab: `ready` marks the stream healthy (refetching everything once unless it
 * resumed from Last-Event-ID or, the first time, from the page's `from`), `change` refetches what it names, `end` (signed out, frozen) closes it and
 * re-reads the current user. Any error marks it unhealthy and refetches every topic, so the polls take over
 * until it is back. Returns the stop.
 */
export function startLiveUpdates(client: QueryClient, options: LiveUpdatesOptions = {}): () => void {
  const {
    url = "/api/events",
    createEventSource = (u) => new EventSource(u, { withCredentials: true }),
    retryMs = 30_000,
    from,
  } = options;
  let source: EventSourceLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let opened = false;
  let firstUrl = from ? `${url}${url.includes("?") ? "&" : "?"}from=${encodeURIComponent(from)}` : url;

  const fallBack = () => {
    if (!isHealthy) return;
    setHealthy(false);
    reschedulePolls(client);
    void refetchTopics(client, EVENT_TOPICS);
  };

  const connect = () => {
    if (stopped) return;
    const es = createEventSource(firstUrl);
    firstUrl = url;
    source = es;
    es.addEventListener("ready", (e) => {
      const { resumed } = JSON.parse((e as MessageEvent<string>).data) as { resumed: boolean };
      const wasHealthy = isHealthy;
      setHealthy(true);
      if (!wasHealthy) reschedulePolls(client);
      // Anything may have changed since the reads on screen were made, unless the stream carried on from them:
      // the tab's first stream does when the page named its reads' notice number (it replays what followed).
      if (!resumed || (opened && !wasHealthy)) void refetchTopics(client, EVENT_TOPICS);
      opened = true;
    });
    es.addEventListener("change", (e) => {
      const { topics } = JSON.parse((e as MessageEvent<string>).data) as { topics: EventTopic[] };
      void refetchTopics(client, topics);
    });
    es.addEventListener("end", () => {
      es.close();
      fallBack();
      void client.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      retryTimer = setTimeout(connect, retryMs);
    });
    es.addEventListener("error", () => {
      fallBack();
      // CLOSED: the browser will not retry by itself (a 401 or 429 answer); CONNECTING: it is retrying.
      if (es.readyState === 2) {
        retryTimer = setTimeout(connect, retryMs);
      }
    });
  };
  connect();

  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    source?.close();
    setHealthy(false);
  };
}
