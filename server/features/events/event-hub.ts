import type { ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { type EndNotice, EVENT_TOPICS, EVENTS_HEARTBEAT_MS, type EventTopic } from "@/contract/events";
import { type Database, queryRows } from "@/server/db/client";
import type { ListenHub } from "@/server/jobs/listen-hub";
import { findSessionUser, forgetCachedSessions } from "@/server/lib/session";

/** The channel server/db/functions/user-events.sql notifies with a user id when that user's notices change. */
const CHANNEL = "pillar_events";
/** A stream re-reads its session and log this often even without a wake-up: the bound on a lost notice. */
export const EVENTS_RECHECK_MS = 60_000;
const EVENTS_PER_READ = 200;
/** A client that stops reading: past this much unsent output its stream is ended (it reconnects and resumes). */
const MAX_BUFFERED_BYTES = 64 * 1024;
/**
 * Streams take turns: each is put in one of this many slots when it opens (round robin), and every
 * heartbeat / SLOTS one slot's streams get their ping and, when due, their re-read. Each stream is
 * served once per heartbeat as before, but a thousand streams opened in the same seconds no longer
 * ping and re-read in one burst of writes and queries that the dashboards' reads wait behind.
 */
export const EVENTS_SLOTS = 25;
/**
 * Re-reads nobody waits for (the periodic re-check, everyone's after the listener reconnects) run this many at
 * a time, queued past it: a slot of 5,000 streams' worth of re-reads (two queries each) no longer takes every
 * pool connection at once while the dashboards' own reads queue behind them. A wake-up for a user's change
 * does not wait in this queue.
 */
export const EVENTS_BACKGROUND_READS = 2;
const KNOWN_TOPICS: ReadonlySet<string> = new Set(EVENT_TOPICS);

export interface OpenStream {
  userId: string;
  /** The session cookie: re-checked (past the cache) on every wake-up, so a revocation ends the stream at once. */
  token: string;
  idHash: string;
  /** The user's freeze when the stream opened: a freeze after it ends the stream. */
  frozenAt: Date | null;
  raw: ServerResponse;
  lastEventId: string | undefined;
}

interface Stream extends Omit<OpenStream, "lastEventId"> {
  slot: number;
  lastId: number;
  checkedAt: number;
  pumping: boolean;
  again: boolean;
  closed: boolean;
  /** Waiting in the background queue for its re-read. */
  queued: boolean;
}

type EndReason = EndNotice["reason"];

/** What one instance lets its streams hold (decision 034). */
export interface StreamLimits {
  /** Streams one session may hold (a browser's tabs); past it the tab polls. */
  perSession: number;
  /**
   * Streams one user may hold across all their sessions; one more ends their oldest (`end: replaced`), so a
   * customer's newest tab always streams and forty logins still hold only this many sockets.
   */
  perUser: number;
  /** Streams the instance holds at most, below its connection cap: the rest stay free for requests. */
  total: number;
}

/** Why a stream may not open here: its session holds its share, or the instance its budget. */
export type StreamRefusal = "session" | "total";

const parseLastId = (value: string | undefined): number | null =>
  value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;

/**
 * Every open `GET /api/events` stream of this instance, by user. The database is the source of truth: a
 * wake-up (LISTEN on the instance's hub, from any instance's commit) makes the user's streams read their log past
 * the last notice they sent, so a lost or coalesced wake-up costs nothing but latency, and a reconnect of the
 * hub's connection re-reads for everyone.
 */
export class EventHub {
  private readonly byUser = new Map<string, Set<Stream>>();
  private readonly bySession = new Map<string, number>();
  private count = 0;
  private readonly slots: Set<Stream>[] = Array.from({ length: EVENTS_SLOTS }, () => new Set());
  private nextSlot = 0;
  private turn = 0;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private closing = false;
  private readonly background: Stream[] = [];
  private backgroundRunning = 0;
  /** The most background re-reads that ran at once, and how many ran (the tests read them). */
  readonly backgroundStats = { peak: 0, done: 0 };

  constructor(
    private readonly database: Database,
    private readonly listen: ListenHub,
    private readonly log: FastifyBaseLogger,
    private readonly limits: StreamLimits,
    /** Told of every wake-up before the streams read (the poll memory forgets that user's answers). */
    private readonly onWake: (userId: string | null) => void = () => {},
    /** How often each stream is pinged, and re-read without a wake-up (a test shortens them). */
    private readonly timing = { heartbeatMs: EVENTS_HEARTBEAT_MS, recheckMs: EVENTS_RECHECK_MS },
  ) {}

  /** The number of the user's latest notice (0 before their first). */
  async position(userId: string): Promise<number> {
    const [row] = await queryRows(
      this.database.db,
      sql`select last_id::text from user_event_counters where user_id = ${userId}`,
      z.object({ last_id: z.string() }),
    );
    return Number(row?.last_id ?? 0);
  }

  /** Starts the heartbeat and listens for wake-ups (resolves once listening). */
  async start(): Promise<void> {
    this.timer = setInterval(() => this.tick(), this.timing.heartbeatMs / EVENTS_SLOTS);
    this.timer.unref();
    this.unlisten = await this.listen.subscribe(CHANNEL, {
      onPayload: (userId) => {
        if (userId) this.wake(userId);
      },
      // Wake-ups sent while the connection was away are lost: every stream re-reads.
      onReconnect: () => this.wakeAll(),
    });
  }

  /** Streams open on this instance. */
  get size(): number {
    return this.count;
  }

  /** Why this session may not open one more stream here, or null when it may. */
  refusal(idHash: string, userId: string): StreamRefusal | null {
    if ((this.bySession.get(idHash) ?? 0) >= this.limits.perSession) return "session";
    // At their own cap the user's oldest stream makes way, so the new one adds nothing to the total.
    const isReplacing = (this.byUser.get(userId)?.size ?? 0) >= this.limits.perUser;
    if (!isReplacing && this.count >= this.limits.total) return "total";
    return null;
  }

  /** Starts a stream: `ready` (or `reset` semantics when it cannot resume), then the notices it missed. */
  async open(options: OpenStream): Promise<void> {
    const { lastEventId, ...rest } = options;
    // Marked as reading until `ready` is written: a wake-up meanwhile only asks for a read right after it.
    const stream: Stream = {
      ...rest,
      slot: this.nextSlot,
      lastId: 0,
      checkedAt: Date.now(),
      pumping: true,
      again: false,
      closed: false,
      queued: false,
    };
    this.makeRoomFor(stream.userId);
    this.add(stream);
    stream.raw.on("close", () => this.remove(stream));
    try {
      await this.begin(stream, lastEventId);
    } catch (err) {
      this.log.warn({ err }, "events: stream could not start");
      this.end(stream);
    }
  }

  private async begin(stream: Stream, lastEventId: string | undefined): Promise<void> {
    const [counter] = await queryRows(
      this.database.db,
      sql`select coalesce((select last_id from user_event_counters where user_id = ${stream.userId}), 0)::text as last_id,
                 (select min(id) from user_events where user_id = ${stream.userId})::text as first_id`,
      z.object({ last_id: z.string(), first_id: z.string().nullable() }),
    );
    const lastId = Number(counter?.last_id ?? 0);
    const firstKept =
      counter?.first_id === null || counter?.first_id === undefined ? null : Number(counter.first_id);
    const from = parseLastId(lastEventId);
    // Resumable when nothing the client has not seen was trimmed, and the number is one this log gave out.
    const resumed =
      from !== null && from <= lastId && (from === lastId || (firstKept !== null && firstKept <= from + 1));
    stream.lastId = resumed ? from : lastId;
    this.send(
      stream,
      `retry: 3000\nid: ${stream.lastId}\nevent: ready\ndata: ${JSON.stringify({ resumed })}\n\n`,
    );
    stream.pumping = false;
    if (stream.again || (resumed && from < lastId)) void this.pump(stream);
  }

  /** Ends the user's oldest streams (a Set iterates in insertion order) until one more fits their cap. */
  private makeRoomFor(userId: string) {
    const set = this.byUser.get(userId);
    while (set && set.size >= this.limits.perUser) {
      const oldest = set.values().next().value;
      if (!oldest) break;
      this.end(oldest, "replaced");
    }
  }

  private add(stream: Stream) {
    this.nextSlot = (this.nextSlot + 1) % EVENTS_SLOTS;
    this.slots[stream.slot]!.add(stream);
    let set = this.byUser.get(stream.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(stream.userId, set);
    }
    set.add(stream);
    this.bySession.set(stream.idHash, (this.bySession.get(stream.idHash) ?? 0) + 1);
    this.count++;
  }

  private remove(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    this.count--;
    this.slots[stream.slot]!.delete(stream);
    const set = this.byUser.get(stream.userId);
    set?.delete(stream);
    if (set?.size === 0) this.byUser.delete(stream.userId);
    const left = (this.bySession.get(stream.idHash) ?? 1) - 1;
    if (left > 0) this.bySession.set(stream.idHash, left);
    else this.bySession.delete(stream.idHash);
  }

  private send(stream: Stream, chunk: string) {
    if (stream.closed) return;
    if (stream.raw.writableLength > MAX_BUFFERED_BYTES) return this.end(stream);
    stream.raw.write(chunk);
  }

  private end(stream: Stream, reason?: EndReason) {
    if (stream.closed) return;
    if (reason) stream.raw.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    this.remove(stream);
    stream.raw.end();
  }

  wake(userId: string): void {
    this.onWake(userId);
    const set = this.byUser.get(userId);
    if (set) for (const stream of set) void this.pump(stream);
  }

  private wakeAll(): void {
    this.onWake(null);
    for (const set of this.byUser.values()) for (const stream of set) this.queue(stream);
  }

  /** A re-read nobody waits for: queued, and run EVENTS_BACKGROUND_READS at a time. */
  private queue(stream: Stream): void {
    if (stream.closed || stream.queued || this.closing) return;
    stream.queued = true;
    this.background.push(stream);
    this.runBackground();
  }

  private runBackground(): void {
    while (this.backgroundRunning < EVENTS_BACKGROUND_READS && this.background.length > 0) {
      const stream = this.background.shift()!;
      stream.queued = false;
      if (stream.closed) continue;
      this.backgroundRunning++;
      this.backgroundStats.peak = Math.max(this.backgroundStats.peak, this.backgroundRunning);
      void this.pump(stream).finally(() => {
        this.backgroundRunning--;
        this.backgroundStats.done++;
        this.runBackground();
      });
    }
  }

  /**
   * One read at a time per stream; a wake-up during a read makes it read again right after. Resolves when
   * this call's read ends (at once when one was already running).
   */
  private pump(stream: Stream): Promise<void> {
    if (stream.closed || this.closing) return Promise.resolve();
    if (stream.pumping) {
      stream.again = true;
      return Promise.resolve();
    }
    stream.pumping = true;
    return this.drain(stream)
      .catch((err: unknown) => {
        // The database is away: the client reconnects and resumes from its last id once it is back.
        this.log.warn({ err }, "events: stream read failed; closing it");
        this.end(stream);
      })
      .finally(() => {
        stream.pumping = false;
      });
  }

  private async drain(stream: Stream): Promise<void> {
    do {
      stream.again = false;
      stream.checkedAt = Date.now();
      const ending = await this.sessionEnding(stream);
      if (ending) return this.end(stream, ending);
      let more = true;
      while (more && !stream.closed) {
        const rows = await queryRows(
          this.database.db,
          sql`select id::text, topics from user_events
              where user_id = ${stream.userId} and id > ${stream.lastId} order by id limit ${EVENTS_PER_READ}`,
          z.object({ id: z.string(), topics: z.array(z.string()) }),
        );
        for (const row of rows) {
          const topics = row.topics.filter((t): t is EventTopic => KNOWN_TOPICS.has(t));
          stream.lastId = Number(row.id);
          this.send(stream, `id: ${row.id}\nevent: change\ndata: ${JSON.stringify({ topics })}\n\n`);
        }
        more = rows.length === EVENTS_PER_READ;
      }
    } while (stream.again && !stream.closed);
  }

  /** Past the session cache on purpose: the revoking instance's cache notice may not have arrived here yet. */
  private async sessionEnding(stream: Stream): Promise<EndReason | null> {
    forgetCachedSessions({ idHash: stream.idHash }, { broadcast: false });
    const found = await findSessionUser(this.database.db, stream.token);
    if (!found || found.user.id !== stream.userId) return "signed_out";
    const frozenAt = found.user.frozenAt;
    if (frozenAt && (!stream.frozenAt || frozenAt.getTime() !== stream.frozenAt.getTime())) return "frozen";
    return null;
  }

  /** One slot's turn: its streams' ping, and a re-read for those that have not read for `timing.recheckMs`. */
  private tick(): void {
    const now = Date.now();
    const slot = this.slots[this.turn]!;
    this.turn = (this.turn + 1) % EVENTS_SLOTS;
    // A stream a send ends leaves the set while it is walked: a Set's iteration skips it, as it should.
    for (const stream of slot) {
      this.send(stream, ": ping\n\n");
      if (now - stream.checkedAt >= this.timing.recheckMs) this.queue(stream);
    }
  }

  /** Ends every stream (the app is closing): clients reconnect to another instance and resume. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    this.background.length = 0;
    for (const set of [...this.byUser.values()]) for (const stream of [...set]) this.end(stream, "closing");
    await this.unlisten?.();
  }
}
