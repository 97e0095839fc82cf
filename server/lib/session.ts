import { createHash, randomBytes } from "node:crypto";
import { and, eq, getTableColumns, gt, lt, ne, or, sql } from "drizzle-orm";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
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

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
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

/** The user behind a cookie value, or null when unknown, idle too long or past its absolute end. */
export async function findSessionUser(
  db: DbOrTx,
  token: string,
): Promise<{ user: SessionUser; session: SessionRef } | null> {
  if (token.length < 20 || token.length > 100) return null;
  const idHash = hashSessionToken(token);
  const { passwordHash: _omit, ...userColumns } = getTableColumns(users);
  const [row] = await db
    .select({ ...userColumns, publicId: sessions.publicId, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), activeSessionCondition(), eq(users.isEmailVerified, true)));
  if (!row) return null;
  const { publicId, lastSeenAt, ...user } = row;
  if (Date.now() - lastSeenAt.getTime() > SESSION_TOUCH_SECONDS * 1000) {
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
  }
  return { user, session: { idHash, publicId } };
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

export async function deleteSessionByToken(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, hashSessionToken(token)));
}

/** Signs the user out everywhere, or everywhere but the session given. */
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
  return rows.length;
}
