import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import type { Database } from "@/server/db/client";
import { addSessionCacheBroadcaster, type CacheTarget, forgetCachedSessions } from "@/server/lib/session";

const CHANNEL = "pillar_session_cache";
const RECONNECT_MAX_MS = 5_000;
/** Notices from this process are already applied locally. */
const ORIGIN = randomUUID();

interface Notice extends CacheTarget {
  origin: string;
}

function parseNotice(payload: string | undefined): Notice | null {
  try {
    const notice = JSON.parse(payload ?? "") as Partial<Notice>;
    if (typeof notice.origin !== "string") return null;
    const target: Notice = { origin: notice.origin };
    if (typeof notice.idHash === "string") target.idHash = notice.idHash;
    if (typeof notice.userId === "string") target.userId = notice.userId;
    return target;
  } catch {
    return null;
  }
}

/**
 * Cross-instance session-cache invalidation through PostgreSQL LISTEN/NOTIFY: logout, revocation, password
 * and role changes reach every instance at once instead of after the 5 s cache expiry, which stays only as
 * the fallback for a notice lost while the listener reconnects (after a database restart, say).
 */
export function startSessionBroadcast(
  database: Database,
  log: FastifyBaseLogger,
): { close(): Promise<void> } {
  if (database.kind !== "pg" || !database.url) return { close: async () => {} };
  const url = database.url;
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on("notification", (message) => {
      const notice = parseNotice(message.payload);
      if (notice && notice.origin !== ORIGIN) forgetCachedSessions(notice, { broadcast: false });
    });
    const retry = (err?: unknown) => {
      if (closed || client !== next) return;
      client = null;
      next.end().catch(() => {});
      if (err) log.warn({ err }, "session broadcast: listener lost; reconnecting");
      scheduleReconnect();
    };
    next.on("error", retry);
    next.on("end", () => retry());
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      attempt = 0;
    } catch (err) {
      retry(err);
    }
  };
  const scheduleReconnect = () => {
    attempt++;
    retryTimer = setTimeout(() => void connect(), Math.min(200 * 2 ** attempt, RECONNECT_MAX_MS));
    retryTimer.unref();
  };

  const stop = addSessionCacheBroadcaster((target) => {
    const payload = JSON.stringify({ ...target, origin: ORIGIN });
    // Fire and forget: a lost notice costs at most the cache's 5 s, never a failed request.
    database.query("select pg_notify($1, $2)", [CHANNEL, payload]).catch((err: unknown) => {
      log.warn({ err }, "session broadcast: notice not sent");
    });
  });
  void connect();

  return {
    async close() {
      closed = true;
      stop();
      clearTimeout(retryTimer);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
