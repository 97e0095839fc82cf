import type { FastifyInstance } from "fastify";
import { etagMatches } from "@/server/lib/conditional-reply";

declare module "fastify" {
  interface FastifyInstance {
    /** This instance's memory of the current dashboard-poll ETags. */
    polls: PollMemory;
  }
  interface FastifyContextConfig {
    /**
     * What the route changes reaches every instance as its event's pushed notice (a money function's event, the
     * jobs room's pushes consumer, each instance's event hub), which forgets the user's polls there: the route
     * forgets them here and sends no broadcast of its own.
     */
    pollsToldByEvent?: boolean;
  }
}

/** How long a remembered ETag is trusted without asking the database: the bound on a lost notice's staleness. */
export const POLL_MEMORY_MS = 5_000;
const POLL_MEMORY_USERS = 20_000;
/** The chat poll's key carries the client's ?after=: a client inventing values must not grow one user's entry. */
const POLL_MEMORY_KEYS_PER_USER = 16;

/** Whose polled data a write changed: some users, or everyone (an admin's write, whose target we do not track). */
export type PollChange = { userIds: string[] } | { all: true };

interface UserPolls {
  /** The change counter when this user's data last changed here; answers read before it are not kept. */
  changedAt: number;
  etags: Map<string, { etag: string; at: number }>;
}

/**
 * Per-user ETags of the dashboard polls, kept in this process so a current repeat poll answers 304 with no
 * database work. Writes forget the user's entries here (after their commit) and tell the other instances
 * (session-broadcast.ts); an entry is trusted for `ttlMs` only, so a lost notice costs at most that much
 * staleness, and the ETags are bound to the user, so a copy is never validated for someone else.
 */
export class PollMemory {
  private readonly users = new Map<string, UserPolls>();
  /** Bumped on every change; an answer read from the database is kept only if nothing changed meanwhile. */
  private counter = 0;
  /** Changes older than this were forgotten with their entry (eviction, "all"): reads begun before it are not kept. */
  private floor = 0;
  private readonly senders = new Set<(change: PollChange) => void>();

  constructor(
    private readonly ttlMs = POLL_MEMORY_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The conditional poll: 304 from memory when the client's ETag is this user's current one; otherwise
   * `load` asks the database and its ETag is remembered for the next poll.
   */
  async answer<R extends { etag: string }>(
    userId: string,
    key: string,
    ifNoneMatch: string | undefined,
    load: () => Promise<R>,
  ): Promise<R | { etag: string; notModified: true }> {
    if (ifNoneMatch && this.ttlMs > 0) {
      const hit = this.users.get(userId)?.etags.get(key);
      if (hit && this.now() - hit.at < this.ttlMs && etagMatches(ifNoneMatch, hit.etag)) {
        return { etag: hit.etag, notModified: true };
      }
    }
    const readFrom = this.counter;
    const result = await load();
    this.remember(userId, key, result.etag, readFrom);
    return result;
  }

  private remember(userId: string, key: string, etag: string, readFrom: number): void {
    if (this.ttlMs <= 0 || readFrom < this.floor) return;
    let polls = this.users.get(userId);
    // A write landed while this answer was read: it may predate the write, so it is not kept.
    if (polls && readFrom < polls.changedAt) return;
    if (!polls) {
      polls = { changedAt: 0, etags: new Map() };
      this.add(userId, polls);
    }
    if (polls.etags.size >= POLL_MEMORY_KEYS_PER_USER && !polls.etags.has(key)) polls.etags.clear();
    polls.etags.set(key, { etag, at: this.now() });
  }

  private add(userId: string, polls: UserPolls): void {
    if (this.users.size >= POLL_MEMORY_USERS) {
      // Oldest first in a Map; its change mark goes into the floor so a read begun before it is not kept.
      const [oldestId, oldest] = this.users.entries().next().value!;
      this.floor = Math.max(this.floor, oldest.changedAt);
      this.users.delete(oldestId);
    }
    this.users.set(userId, polls);
  }

  /** A write committed: forget what it may have changed here and, unless the notice came from elsewhere, tell the other instances. */
  changed(change: PollChange, { broadcast = true } = {}): void {
    this.counter++;
    if ("all" in change) {
      this.users.clear();
      this.floor = this.counter;
    } else {
      for (const userId of change.userIds) {
        const polls = this.users.get(userId);
        if (polls) {
          polls.etags.clear();
          polls.changedAt = this.counter;
        } else {
          this.add(userId, { changedAt: this.counter, etags: new Map() });
        }
      }
    }
    if (broadcast) for (const send of this.senders) send(change);
  }

  /** session-broadcast.ts registers the cross-instance notice here. */
  addBroadcaster(send: (change: PollChange) => void): () => void {
    this.senders.add(send);
    return () => this.senders.delete(send);
  }
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every mutation forgets its user's polls before the reply leaves (so after its commit, and before the
 * client can poll again): a customer's writes touch only their own data; an admin's may touch anyone's, and
 * they are rare, so they forget everyone's rather than trust a per-route list of targets to stay complete.
 */
export function registerPollMemory(
  app: FastifyInstance,
  ttlMs: number,
  now: () => number = Date.now,
): PollMemory {
  const polls = new PollMemory(ttlMs, now);
  app.decorate("polls", polls);
  app.addHook("onSend", (request, _reply, payload, done) => {
    if (!READS.has(request.method) && request.user) {
      polls.changed(request.user.isAdmin ? { all: true } : { userIds: [request.user.id] }, {
        broadcast: request.routeOptions.config?.pollsToldByEvent !== true,
      });
    }
    done(null, payload);
  });
  return polls;
}
