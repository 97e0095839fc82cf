import { environmentManager, QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { livePoll, liveStore, startLiveUpdates } from "@/web/lib/live-updates";

/** Stands in for the browser's EventSource: the test plays the server's side. */
class FakeEventSource {
  readyState = 0;
  closed = false;
  private readonly handlers = new Map<string, ((e: { data: string }) => void)[]>();
  addEventListener(type: string, handler: (e: { data: string }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown = {}) {
    if (type !== "error") this.readyState = 1;
    for (const h of this.handlers.get(type) ?? []) h({ data: JSON.stringify(data) });
  }
}

const READS = [
  "/api/account/summary",
  "/api/transactions/recent",
  "/api/chat/unread",
  "/api/kyc/status",
  "/api/auth/user",
];

/** A client whose reads count their fetches, each read observed (as a screen would) so invalidation refetches it. */
function clientWithReads() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  const fetches = new Map<string, number>();
  const unsubscribers: (() => void)[] = [];
  for (const url of READS) {
    fetches.set(url, 0);
    const observer = new QueryObserver(client, {
      queryKey: [url],
      queryFn: async () => {
        fetches.set(url, (fetches.get(url) ?? 0) + 1);
        return { url };
      },
    });
    unsubscribers.push(observer.subscribe(() => {}));
  }
  return { client, fetches };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

const settle = () => new Promise((r) => setTimeout(r, 10));

describe("live updates (one EventSource per tab)", () => {
  it("turns the polls off once the stream is ready and back on when it fails", async () => {
    const { client } = clientWithReads();
    let source: FakeEventSource | undefined;
    stop = startLiveUpdates(client, {
      createEventSource: () => {
        source = new FakeEventSource();
        return source as unknown as EventSource;
      },
    });
    const poll = livePoll(5_000);
    expect(poll()).toBe(5_000);
    source!.emit("ready", { resumed: false });
    expect(liveStore.get()).toBe(true);
    expect(poll()).toBe(false);
    source!.emit("error");
    expect(liveStore.get()).toBe(false);
    expect(poll()).toBe(5_000);
  });

  it("stops a poll already counting down when the stream comes up, with nothing to refetch (a page's own reads)", async () => {
    vi.useFakeTimers();
    // Query schedules no timers where there is no window (as here): play a browser tab.
    environmentManager.setIsServer(() => false);
    try {
      const client = new QueryClient();
      let polls = 0;
      // A server-drawn page's read: its data came with the page, and its poll started before the stream.
      client.setQueryData(["/api/kyc/status"], { n: 0 });
      const observer = new QueryObserver(client, {
        queryKey: ["/api/kyc/status"],
        queryFn: async () => ({ n: ++polls }),
        staleTime: Number.POSITIVE_INFINITY,
        refetchInterval: livePoll(10_000),
      });
      const unsubscribe = observer.subscribe(() => {});
      let source: FakeEventSource | undefined;
      stop = startLiveUpdates(client, {
        createEventSource: () => {
          source = new FakeEventSource();
          return source as unknown as EventSource;
        },
      });
      // It resumed from the page's notice number: nothing is asked again, and no poll follows.
      source!.emit("ready", { resumed: true });
      await vi.advanceTimersByTimeAsync(35_000);
      expect(polls).toBe(0);
      // The stream fails: the polls start again.
      source!.emit("error");
      await vi.advanceTimersByTimeAsync(25_000);
      expect(polls).toBeGreaterThanOrEqual(2);
      unsubscribe();
    } finally {
      environmentManager.setIsServer(() => typeof window === "undefined");
      vi.useRealTimers();
    }
  });

  it("refetches only the reads a notice names", async () => {
    const { client, fetches } = clientWithReads();
    let source: FakeEventSource | undefined;
    stop = startLiveUpdates(client, {
      createEventSource: () => {
        source = new FakeEventSource();
        return source as unknown as EventSource;
      },
    });
    source!.emit("ready", { resumed: true });
    await settle();
    const before = new Map(fetches);
    source!.emit("change", { topics: ["chat"] });
    await settle();
    expect(fetches.get("/api/chat/unread")).toBe(before.get("/api/chat/unread")! + 1);
    for (const url of ["/api/account/summary", "/api/transactions/recent", "/api/kyc/status"]) {
      expect(fetches.get(url)).toBe(before.get(url));
    }
    source!.emit("change", { topics: ["summary", "transactions"] });
    await settle();
    expect(fetches.get("/api/account/summary")).toBe(before.get("/api/account/summary")! + 1);
    expect(fetches.get("/api/transactions/recent")).toBe(before.get("/api/transactions/recent")! + 1);
    expect(fetches.get("/api/kyc/status")).toBe(before.get("/api/kyc/status"));
  });

  it("closes on `end` (signed out or frozen), re-reads the user and falls back to polling", async () => {
    const { client, fetches } = clientWithReads();
    const sources: FakeEventSource[] = [];
    stop = startLiveUpdates(client, {
      retryMs: 60_000,
      createEventSource: () => {
        const s = new FakeEventSource();
        sources.push(s);
        return s as unknown as EventSource;
      },
    });
    sources[0]!.emit("ready", { resumed: true });
    await settle();
    const userReads = fetches.get("/api/auth/user")!;
    sources[0]!.emit("end", { reason: "signed_out" });
    await settle();
    expect(sources[0]!.closed).toBe(true);
    expect(liveStore.get()).toBe(false);
    expect(fetches.get("/api/auth/user")).toBeGreaterThan(userReads);
    expect(sources).toHaveLength(1);
  });

  it("starts the first stream where the page's reads were made, asks nothing again if it resumed, and not later", async () => {
    const { client, fetches } = clientWithReads();
    await settle();
    const urls: string[] = [];
    const sources: FakeEventSource[] = [];
    stop = startLiveUpdates(client, {
      from: "41",
      retryMs: 1,
      createEventSource: (url) => {
        urls.push(url);
        const s = new FakeEventSource();
        sources.push(s);
        return s as unknown as EventSource;
      },
    });
    const before = new Map(fetches);
    sources[0]!.emit("ready", { resumed: true });
    await settle();
    expect(urls).toEqual(["/api/events?from=41"]);
    expect(fetches).toEqual(before);

    // Given up (a 429, say): the next stream has no page behind it, so it starts fresh and everything is re-read.
    sources[0]!.close();
    sources[0]!.emit("error");
    await settle();
    expect(urls).toEqual(["/api/events?from=41", "/api/events"]);
    const fellBack = new Map(fetches);
    sources[1]!.emit("ready", { resumed: false });
    await settle();
    for (const url of READS) expect(fetches.get(url), url).toBe(fellBack.get(url)! + 1);
  });

  it("re-reads everything when the page's number could not be resumed from", async () => {
    const { client, fetches } = clientWithReads();
    await settle();
    let source: FakeEventSource | undefined;
    stop = startLiveUpdates(client, {
      from: "7",
      createEventSource: () => {
        source = new FakeEventSource();
        return source as unknown as EventSource;
      },
    });
    const before = new Map(fetches);
    source!.emit("ready", { resumed: false });
    await settle();
    for (const url of READS) expect(fetches.get(url), url).toBe(before.get(url)! + 1);
  });
});
