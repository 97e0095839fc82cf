import { hash, randomBytes } from "node:crypto";
import { and, desc, eq, getTableColumns, gt, lt, ne, notInArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "@/server/config";
import { afterCommit } from "@/server/db/after-commit";
import { type Db, type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import { preparedPerDatabase } from "@/server/db/prepared";
import { sessions, users } from "@/server/db/schema";

/** ASVS L2: 30 minutes idle, 12 hours absolute. */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;
/** Polling every few seconds must not write a row each time: last_seen_at moves at most once a minute. */
export const SESSION_TOUCH_SECONDS = 60;

export type UserRow = typeof users.$inferSelect;
/** The signed-in user as routes see it: everything but the password hash. */
export type SessionUser = Omit<UserRow, "passwordHash">;

export interface SessionRef {
  idHash: string;
  publicId: string;
}

export function sessionCookieName(config: Pick<Config, "cookieSecure">): string {
  // __Host- binds the cookie to this exact origin over HTTPS, with no Domain attribute.
  return config.cookieSecure ? "__Host-sid" : "sid";
}

export function sessionCookieOptions(config: Pick<Config, "cookieSecure">) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: config.cookieSecure,
    maxAge: SESSION_ABSOLUTE_SECONDS,
  };
}

/** The readable hint beside the session cookie: same lifetime and scope, but no secret and not HttpOnly. */
export function signedInHintCookieOptions(config: Pick<Config, "cookieSecure">) {
  return { ...sessionCookieOptions(config), httpOnly: false };
}

export function hashSessionToken(token: string): string {
  // The one-shot hash: a Hash object per request cost more than the rest of a cached session lookup.
  return hash("sha256", token, "hex");
}

/** A fresh 256-bit session; only its SHA-256 is stored. Called on every login, so an old id never carries over. */
export async function createSession(
  db: DbOrTx,
  { userId, userAgent, ip }: { userId: string; userAgent?: string | null; ip?: string | null },
): Promise<{ token: string; publicId: string }> {
  const token = randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(sessions)
    .values({
      idHash: hashSessionToken(token),
      userId,
      userAgent: userAgent ? userAgent.slice(0, 512) : null,
      ip: ip ?? null,
      expiresAt: sql`now() + make_interval(secs => ${SESSION_ABSOLUTE_SECONDS})`,
    })
    .returning({ publicId: sessions.publicId });
  return { token, publicId: row!.publicId };
}

/** A session counts while it is neither idle for 30 minutes nor past its 12-hour end. */
export const activeSessionCondition = () =>
  and(
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_IDLE_SECONDS})`),
  );

/**
 * Dashboard polls send several requests a second per user; a lookup is kept in this process for a few
 * seconds so most of them skip the session query. Every write that ends a session or changes the user
 * row forgets the entries it affects here; another instance may serve a revoked session for at most
 * this long (docs/operations.md, "Topology (several instances)").
 */
export const SESSION_CACHE_MS = 5_000;
const SESSION_CACHE_MAX = 20_000;

interface CachedSession {
  found: { user: SessionUser; session: SessionRef };
  cachedAt: number;
  lastSeenAt: number;
  expiresAt: number;
}
const sessionCache = new Map<string, CachedSession>();

/**
 * The cached lookup while it can still count: not past its end, not idle, and fresh (SESSION_CACHE_MS) unless the
 * caller's SQL checks the session itself (`checkedInSql`), which may use an older one. Only one that can no longer
 * count is dropped: an older one still serves the routes whose SQL checks.
 */
function cachedSession(idHash: string, now: number, checkedInSql: boolean): CachedSession["found"] | null {
  const hit = sessionCache.get(idHash);
  if (!hit) return null;
  if (now >= hit.expiresAt || now - hit.lastSeenAt >= SESSION_IDLE_SECONDS * 1000) {
    sessionCache.delete(idHash);
    return null;
  }
  return checkedInSql || now - hit.cachedAt < SESSION_CACHE_MS ? hit.found : null;
}

function cacheSession(idHash: string, entry: CachedSession): void {
  // Oldest first in a Map: dropping the first key keeps memory bounded under a flood of distinct cookies.
  if (sessionCache.size >= SESSION_CACHE_MAX) sessionCache.delete(sessionCache.keys().next().value!);
  sessionCache.set(idHash, entry);
}

export interface CacheTarget {
  idHash?: string;
  userId?: string;
}

/** Tells the other instances to forget the same entries (session-broadcast.ts registers one per app). */
const broadcasters = new Set<(target: CacheTarget) => void>();

export function addSessionCacheBroadcaster(broadcast: (target: CacheTarget) => void): () => void {
  broadcasters.add(broadcast);
  return () => broadcasters.delete(broadcast);
}

/**
 * Forgets the cached lookups for one session, or for every session of a user, in this process and (unless
 * the call comes from another instance's notice) in every other instance sharing the database.
 */
export function forgetCachedSessions(target: CacheTarget, { broadcast = true } = {}): void {
  if (broadcast) for (const send of broadcasters) send(target);
  if (target.idHash) sessionCache.delete(target.idHash);
  if (target.userId) {
    for (const [idHash, entry] of sessionCache) {
      if (entry.found.user.id === target.userId) sessionCache.delete(idHash);
    }
  }
}

/** Tests that age or delete session rows behind the app's back start the next request from the database. */
export function clearSessionCache(): void {
  sessionCache.clear();
}

/** The session lookup a cache miss runs: parsed and planned once per connection, its SQL built once. */
const sessionUserQuery = preparedPerDatabase((db) => {
  const { passwordHash: _omit, ...userColumns } = getTableColumns(users);
  return db
    .select({
      ...userColumns,
      publicId: sessions.publicId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder("idHash")),
        activeSessionCondition(),
        eq(users.isEmailVerified, true),
      ),
    )
    .prepare("session_user");
});

/**
 * The user behind a cookie value, or null when unknown, idle too long or past its absolute end. A route whose SQL
 * checks the session under its own call (`checkedInSql`: a transfer request, create_transfer_request's
 * active_session_user, which also records its activity) is answered from this process's cache for as long as the
 * session can count here, not only SESSION_CACHE_MS: a session ended on another instance meanwhile is refused by
 * that SQL, so the route costs no lookup of its own (decision 049).
 */
export async function findSessionUser(
  db: Db,
  token: string,
  { checkedInSql = false }: { checkedInSql?: boolean } = {},
): Promise<{ user: SessionUser; session: SessionRef } | null> {
  if (token.length < 20 || token.length > 100) return null;
  const idHash = hashSessionToken(token);
  const now = Date.now();
  const cached = cachedSession(idHash, now, checkedInSql);
  if (cached) return cached;
  const [row] = await sessionUserQuery(db).execute({ idHash });
  if (!row) return null;
  const { publicId, lastSeenAt, expiresAt, ...user } = row;
  let seenAt = lastSeenAt.getTime();
  if (now - seenAt > SESSION_TOUCH_SECONDS * 1000) {
    // Conditional, so concurrent polls touch the row once.
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(
        and(
          eq(sessions.idHash, idHash),
          lt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_TOUCH_SECONDS})`),
        ),
      );
    seenAt = now;
  }
  const found = { user, session: { idHash, publicId } };
  cacheSession(idHash, { found, cachedAt: now, lastSeenAt: seenAt, expiresAt: expiresAt.getTime() });
  return found;
}

/**
 * The user a session counts for now, asked of the database and not the cache (active_session_user, the check a
 * money function makes under its call): null once it ended, on any instance, or went idle.
 */
export async function sessionUserOf(db: DbOrTx, idHash: string): Promise<string | null> {
  const [row] = await queryRows(
    db,
    sql`select active_session_user(${idHash}, ${SESSION_IDLE_SECONDS}) as user_id`,
    z.object({ user_id: z.string().nullable() }),
  );
  return row?.user_id ?? null;
}

/** Expired rows are dropped at the user's next login, so the table does not grow with dead sessions. */
export async function deleteExpiredSessions(db: DbOrTx, userId: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        or(
          lt(sessions.expiresAt, sql`now()`),
          lt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_IDLE_SECONDS})`),
        ),
      ),
    );
}

/** Advisory-lock namespace (first key of the two-key form) for one user's session count. */
const SESSION_COUNT_LOCK = 26_101;

/**
 * Ends the user's oldest sessions so that at most `keep` remain: logging in past MAX_SESSIONS_PER_USER ends the
 * oldest (and, through the sessions trigger, its event streams). Counted in PostgreSQL, so it holds across
 * instances; two logins racing take the user's lock in turn, so neither can count before the other's insert.
 * Call in the transaction that creates the new session, before creating it.
 */
export async function deleteOldestSessions(tx: Tx, userId: string, keep: number): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SESSION_COUNT_LOCK}, hashtext(${userId}))`);
  const newest = tx
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt), desc(sessions.idHash))
    .limit(keep);
  const rows = await tx
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), notInArray(sessions.idHash, newest)))
    .returning({ idHash: sessions.idHash });
  afterCommit(tx, () => {
    for (const { idHash } of rows) forgetCachedSessions({ idHash });
  });
  return rows.length;
}

export async function deleteSessionByToken(db: DbOrTx, token: string): Promise<void> {
  const idHash = hashSessionToken(token);
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
  afterCommit(db, () => forgetCachedSessions({ idHash }));
}

/**
 * Signs the user out everywhere, or everywhere but the session given. The cached sessions are forgotten once
 * the deletion commits, so a request racing the commit cannot cache them again.
 */
export async function deleteUserSessions(
  db: DbOrTx,
  userId: string,
  { exceptIdHash }: { exceptIdHash?: string } = {},
): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(
      exceptIdHash
        ? and(eq(sessions.userId, userId), ne(sessions.idHash, exceptIdHash))
        : eq(sessions.userId, userId),
    )
    .returning({ publicId: sessions.publicId });
  afterCommit(db, () => forgetCachedSessions({ userId }));
  return rows.length;
}
