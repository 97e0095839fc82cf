import { z } from "zod";
import { endpoints } from "@/contract/endpoint";

import { EVENT_TOPICS } from "@/contract/event-topics";

export { EVENT_TOPICS, type EventTopic } from "@/contract/event-topics";

/** `event: change`: these topics changed; the SSE `id:` line is the notice's number for Last-Event-ID. */
export const changeNotice = z.object({ topics: z.array(z.enum(EVENT_TOPICS)) });
export type ChangeNotice = z.infer<typeof changeNotice>;

/**
 * `event: ready` opens every stream. `resumed` is false when the stream could not carry on from the client's
 * Last-Event-ID (none sent, or notices since then are no longer kept): the client refetches every topic once.
 */
export const readyNotice = z.object({ resumed: z.boolean() });

/**
 * `GET /api/events/position`: the number of the signed-in customer's latest notice. A page drawn from reads
 * made after it opens its stream with `?from=` that number, so notices committed meanwhile are replayed and
 * nothing is asked twice (server/lib/spa.ts).
 */
export const eventPositionResponse = z.object({ lastId: z.string().regex(/^\d+$/) });
export type EventPosition = z.infer<typeof eventPositionResponse>;

/** `GET /api/events?from=`: where to resume when there is no Last-Event-ID header (the tab's first stream). */
export const eventStreamQuery = z.object({ from: z.string().max(20).optional() });

/**
 * `event: end`: the session ended or the account was frozen (the client must not reconnect with it), the
 * instance is closing, or the user opened more streams than EVENT_STREAMS_PER_USER and this, their oldest,
 * made way (the tab polls, and tries again later).
 */
export const endNotice = z.object({ reason: z.enum(["signed_out", "frozen", "closing", "replaced"]) });
export type EndNotice = z.infer<typeof endNotice>;

/** Open streams one session may hold on one instance (a tab each); past it the client polls instead. */
export const STREAMS_PER_SESSION = 4;
/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const EVENTS_HEARTBEAT_MS = 25_000;

/** The OpenAPI description of `GET /api/events`: a text/event-stream that stays open. */
export const eventStreamResponse = {
  description:
    "Server-Sent Events: `ready`, then `change` notices (topics only) with ids, `end` when the session ends",
  content: { "text/event-stream": { schema: z.string() } },
};

/**
 * The events area's endpoints by contract. GET /api/events itself, a stream that stays open (its answer is a
 * text/event-stream, not JSON, and the route hijacks the reply), is still a plain route.
 */
export const EVENTS_ENDPOINTS = endpoints({
  "GET /api/events/position": { access: "user", replies: { 200: eventPositionResponse } },
});
