import { performance } from "node:perf_hooks";
import type { Page } from "playwright-core";
import { expect } from "vitest";

export interface RecordedRequest {
  method: string;
  /** The URL's path and query. */
  path: string;
  /** Chromium's resource type: Document, Fetch, EventSource, Script… */
  type: string;
  /** `recordNetwork`'s clock (`now()`) when the test heard of it. */
  at: number;
  /** Chromium's network clock (seconds) when it was sent: orders requests and notices exactly. */
  ts: number;
  /** Chromium's id of the document load the request belongs to (a Document request carries its own). */
  loaderId: string;
}

export interface RecordedNotice {
  /** The server-sent event's name: ready, change, end… */
  eventName: string;
  data: string;
  at: number;
  ts: number;
}

/**
 * Records what the page asks the network for and every server-sent event it receives, through Chromium's
 * DevTools protocol (the page itself is not touched). Each carries Chromium's own time (`ts`, which orders a
 * request against a notice exactly) and the test's time on hearing of it (`at`, comparable with `now()`).
 */
export async function recordNetwork(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const requests: RecordedRequest[] = [];
  const notices: RecordedNotice[] = [];
  cdp.on("Network.requestWillBeSent", (e) => {
    const url = new URL(e.request.url);
    requests.push({
      method: e.request.method,
      path: `${url.pathname}${url.search}`,
      type: e.type ?? "Other",
      at: performance.now(),
      ts: e.timestamp,
      loaderId: e.loaderId,
    });
  });
  cdp.on("Network.eventSourceMessageReceived", (e) => {
    notices.push({ eventName: e.eventName, data: e.data, at: performance.now(), ts: e.timestamp });
  });
  await cdp.send("Network.enable");
  return {
    requests,
    notices,
    now: () => performance.now(),
    /** The first notice (already received or still to come) that `matches`. */
    async waitForNotice(matches: (notice: RecordedNotice) => boolean, timeout = 15_000) {
      await expect.poll(() => notices.some(matches), { timeout }).toBe(true);
      return notices.find(matches)!;
    },
    stop: () => cdp.detach(),
  };
}
