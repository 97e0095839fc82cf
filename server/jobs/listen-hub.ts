import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import type { Database } from "@/server/db/client";

const RECONNECT_MAX_MS = 5_000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

interface Subscriber {
  onPayload(payload: string): void;
  /** Called after the connection came back: notifications sent while it was away are lost. */
  onReconnect?(): void;
}

export interface ListenHub {
  /** Listens on `channel` (a plain identifier); answers the unsubscribe. */
  subscribe(channel: string, subscriber: Subscriber): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The one LISTEN connection of an instance (decision 051): every channel its parts listen on (pushed updates,
 * session invalidation, the jobs room's wake-ups) shares it. On PostgreSQL a client of its own, reconnected
 * with backoff, re-listening every channel and telling each subscriber it may have missed notifications; on
 * PGlite the one in-process backend.
 */
export function startListenHub(database: Database, log: FastifyBaseLogger): ListenHub {
  const byChannel = new Map<string, Set<Subscriber>>();
  const deliver = (channel: string, payload: string) => {
    for (const subscriber of byChannel.get(channel) ?? []) {
      try {
        subscriber.onPayload(payload);
      } catch (err) {
        log.error({ err, channel }, "listen hub: a subscriber failed");
      }
    }
  };

  if (database.kind !== "pg" || !database.url) {
    const unlistens = new Map<string, Promise<(() => Promise<void>) | undefined>>();
    return {
      async subscribe(channel, subscriber) {
        if (!CHANNEL_NAME.test(channel)) throw new Error(`listen hub: bad channel ${channel}`);
        let set = byChannel.get(channel);
        if (!set) {
          set = new Set();
          byChannel.set(channel, set);
          unlistens.set(
            channel,
            database.listen?.(channel, (p) => deliver(channel, p)) ?? Promise.resolve(undefined),
          );
        }
        set.add(subscriber);
        await unlistens.get(channel);
        return async () => {
          set.delete(subscriber);
        };
      },
      async close() {
        for (const unlisten of unlistens.values()) await (await unlisten)?.().catch(() => {});
        unlistens.clear();
        byChannel.clear();
      },
    };
  }

  const url = database.url;
  let client: pg.Client | null = null;
  let ready: Promise<void> | null = null;
  let closed = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on("notification", (message) => deliver(message.channel, message.payload ?? ""));
    const retry = (err?: unknown) => {
      if (closed || client !== next) return;
      client = null;
      next.end().catch(() => {});
      if (err) log.warn({ err }, "listen hub: connection lost; reconnecting");
      attempt++;
      retryTimer = setTimeout(
        () => {
          ready = connect();
        },
        Math.min(200 * 2 ** attempt, RECONNECT_MAX_MS),
      );
      retryTimer.unref();
    };
    next.on("error", retry);
    next.on("end", () => retry());
    client = next;
    return (async () => {
      try {
        await next.connect();
        for (const channel of byChannel.keys()) await next.query(`LISTEN ${channel}`);
        if (attempt > 0) {
          for (const set of byChannel.values()) for (const s of set) s.onReconnect?.();
        }
        attempt = 0;
      } catch (err) {
        retry(err);
      }
    })();
  };

  return {
    async subscribe(channel, subscriber) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`listen hub: bad channel ${channel}`);
      let set = byChannel.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        byChannel.set(channel, set);
      }
      set.add(subscriber);
      if (!ready) ready = connect();
      else if (isNew) {
        await ready;
        // A connection made after this channel was added listens on it already; otherwise add it now.
        await client?.query(`LISTEN ${channel}`).catch((err: unknown) => {
          log.warn({ err, channel }, "listen hub: LISTEN failed; the reconnect adds it");
        });
      }
      await ready;
      return async () => {
        set.delete(subscriber);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => {});
      client = null;
      byChannel.clear();
    },
  };
}
