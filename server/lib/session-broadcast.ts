import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "@/server/db/client";
import type { ListenHub } from "@/server/jobs/listen-hub";
import type { PollChange, PollMemory } from "@/server/lib/poll-memory";
import { addSessionCacheBroadcaster, type CacheTarget, forgetCachedSessions } from "@/server/lib/session";

const CHANNEL = "pillar_session_cache";
/** pg_notify refuses payloads of 8000 bytes or more: a batch of changed users is split below that. */
const NOTICE_USERS_MAX = 150;

interface Notice extends CacheTarget {
  origin: string;
  /** Users whose dashboard polls changed ("all" after an admin's write). */
  polls?: string[] | "all";
}

function parseNotice(payload: string | undefined): Notice | null {
  try {
    const notice = JSON.parse(payload ?? "") as Partial<Notice>;
    if (typeof notice.origin !== "string") return null;
    const target: Notice = { origin: notice.origin };
    if (typeof notice.idHash === "string") target.idHash = notice.idHash;
    if (typeof notice.userId === "string") target.userId = notice.userId;
    if (notice.polls === "all") target.polls = "all";
    else if (Array.isArray(notice.polls)) target.polls = notice.polls.filter((id) => typeof id === "string");
    return target;
  } catch {
    return null;
  }
}

/**
 * Cross-instance session-cache invalidation through PostgreSQL LISTEN/NOTIFY, on the instance's one LISTEN
 * connection (the jobs room's hub): logout, revocation, password and role changes reach every instance at once
 * instead of after the 5 s cache expiry, which stays only as the fallback for a notice lost while the hub
 * reconnects (after a database restart, say). On PGlite there is no other instance to tell or hear.
 */
export async function startSessionBroadcast(
  database: Database,
  hub: ListenHub,
  log: FastifyBaseLogger,
  polls?: PollMemory,
): Promise<{ close(): Promise<void> }> {
  if (database.kind !== "pg" || !database.url) return { close: async () => {} };
  /** Notices from this app are already applied locally (per app, so two apps in one process hear each other). */
  const origin = randomUUID();
  let closed = false;
  const unsubscribe = await hub.subscribe(CHANNEL, {
    onPayload(payload) {
      const notice = parseNotice(payload);
      if (!notice || notice.origin === origin) return;
      if (notice.idHash || notice.userId) forgetCachedSessions(notice, { broadcast: false });
      if (notice.polls === "all") polls?.changed({ all: true }, { broadcast: false });
      else if (notice.polls) polls?.changed({ userIds: notice.polls }, { broadcast: false });
    },
  });

  const notify = (notice: Omit<Notice, "origin">) => {
    const payload = JSON.stringify({ ...notice, origin });
    // Fire and forget: a lost notice costs at most the cache's 5 s, never a failed request.
    database.query("select pg_notify($1, $2)", [CHANNEL, payload]).catch((err: unknown) => {
      log.warn({ err }, "session broadcast: notice not sent");
    });
  };
  const stop = addSessionCacheBroadcaster(notify);

  // Poll changes are gathered for one turn of the event loop, so a burst of writes costs one notice.
  let pendingAll = false;
  const pendingUsers = new Set<string>();
  let flushScheduled = false;
  const flush = () => {
    flushScheduled = false;
    if (closed) return;
    if (pendingAll) notify({ polls: "all" });
    else {
      const ids = [...pendingUsers];
      for (let i = 0; i < ids.length; i += NOTICE_USERS_MAX)
        notify({ polls: ids.slice(i, i + NOTICE_USERS_MAX) });
    }
    pendingAll = false;
    pendingUsers.clear();
  };
  const stopPolls = polls?.addBroadcaster((change: PollChange) => {
    if ("all" in change) pendingAll = true;
    else for (const id of change.userIds) pendingUsers.add(id);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  });

  return {
    async close() {
      closed = true;
      stop();
      stopPolls?.();
      await unsubscribe();
    },
  };
}
