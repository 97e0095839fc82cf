import type { FastifyInstance } from "fastify";
import {
  EVENTS_ENDPOINTS,
  eventStreamQuery,
  eventStreamResponse,
  STREAMS_PER_SESSION,
} from "@/contract/events";
import { EventHub } from "@/server/features/events/event-hub";
import { eventStreamBudget } from "@/server/lib/connection-limits";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { sessionCookieName } from "@/server/lib/session";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

declare module "fastify" {
  interface FastifyInstance {
    /** This instance's open event streams (decision 034). */
    events: EventHub;
  }
}

export const EVENTS_MESSAGES = {
  notAStreamReader: "This address sends live updates to the Pillar app (Accept: text/event-stream).",
  tooManyStreams:
    "Too many open windows are receiving live updates. This one will refresh every few seconds instead.",
  streamsBusy: "Live updates are busy right now. This window will refresh every few seconds instead.",
} as const;

/**
 * `GET /api/events`: the signed-in customer's "this changed" notices as Server-Sent Events (decision 034). The
 * connection counts against MAX_CONNECTIONS and the per-IP cap like any other. Here a session holds at most
 * STREAMS_PER_SESSION, a user EVENT_STREAMS_PER_USER across their sessions (one more ends their oldest), and
 * the instance its stream budget (eventStreamBudget), so streams never take the connections requests need.
 * All three are per instance: behind a balancer a user holds up to that many on each, which MAX_SESSIONS_PER_USER
 * (in PostgreSQL) and the per-user cap bound together.
 */
export async function eventRoutes(app: FastifyInstance) {
  const { database, config } = app.deps;
  // A notice means the user's data changed, perhaps by another customer's payment or a worker: the answers this
  // instance remembers for their polls are forgotten before the streams tell the browser to read again.
  const limits = {
    perSession: STREAMS_PER_SESSION,
    perUser: config.events.streamsPerUser,
    total: eventStreamBudget(app.maxConnections, config.events.streamsMax),
  };
  const hub = new EventHub(database, app.jobs.hub, app.log, limits, (userId) =>
    app.polls.changed(userId ? { userIds: [userId] } : { all: true }, { broadcast: false }),
  );
  await hub.start();
  app.decorate("events", hub);
  // Before the server stops accepting: open streams would otherwise hold the close until its deadline.
  app.addHook("preClose", () => hub.close());

  registerEndpoints(app, EVENTS_ENDPOINTS, {
    "GET /api/events/position": async (request) => ({
      lastId: String(await hub.position(signedInUser(request).id)),
    }),
  });

  // A plain route: the stream takes over the reply (hijack) and answers text/event-stream, not JSON.
  app.get<{ Querystring: { from?: string } }>(
    "/events",
    {
      onRequest: requireUser,
      schema: { querystring: eventStreamQuery, response: { 200: eventStreamResponse } },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const session = request.session;
      const token = request.cookies[sessionCookieName(config)];
      if (!session || !token) throw new AppError("UNAUTHORIZED", "Please sign in again.");
      const refusal = hub.refusal(session.idHash, user.id);
      if (refusal) {
        throw new AppError(
          "RATE_LIMITED",
          refusal === "session" ? EVENTS_MESSAGES.tooManyStreams : EVENTS_MESSAGES.streamsBusy,
        );
      }
      // Only an event-stream reader gets a stream: anything else (a fetch, a test's inject) would wait forever.
      if (!request.headers.accept?.includes("text/event-stream")) {
        throw new AppError("BAD_REQUEST", EVENTS_MESSAGES.notAStreamReader);
      }
      // The browser's own reconnects send the header; the tab's first stream may name where its page was read.
      const lastEventId = request.headers["last-event-id"] ?? request.query.from;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        // nginx and some proxies buffer responses unless told not to; a buffered stream is a silent one.
        "x-accel-buffering": "no",
      });
      raw.flushHeaders();
      await hub.open({
        userId: user.id,
        token,
        idHash: session.idHash,
        frozenAt: user.frozenAt,
        raw,
        lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
      });
    },
  );
}
