import { and, desc, eq } from "drizzle-orm";
import { AUTH_SERVER_MESSAGES, type MessageResponse, type SessionInfo } from "@/contract/auth";
import { afterCommit } from "@/server/db/after-commit";
import type { DbOrTx } from "@/server/db/client";
import { sessions } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import {
  activeSessionCondition,
  deleteUserSessions,
  forgetCachedSessions,
  type SessionRef,
} from "@/server/lib/session";
import { describeBrowser } from "@/server/lib/session-browser";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user's live sessions, most recently used first, with the caller's own marked current. */
export async function findUserSessions(
  db: DbOrTx,
  userId: string,
  current: SessionRef,
): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), activeSessionCondition()))
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((row) => ({
    id: row.publicId,
    browser: describeBrowser(row.userAgent),
    userAgent: row.userAgent,
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.idHash === current.idHash,
  }));
}

/** Ends one of the user's own sessions by its public id; anyone else's id is simply not found. */
export async function deleteUserSession(
  db: DbOrTx,
  userId: string,
  publicId: string,
  current: SessionRef,
): Promise<MessageResponse & { wasCurrent: boolean }> {
  // Checked here so a malformed id is a 404, not a uuid cast error from the database.
  if (!UUID.test(publicId)) throw new AppError("NOT_FOUND", AUTH_SERVER_MESSAGES.sessionNotFound);
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.publicId, publicId.toLowerCase()), eq(sessions.userId, userId)))
    .returning({ idHash: sessions.idHash });
  if (!row) throw new AppError("NOT_FOUND", AUTH_SERVER_MESSAGES.sessionNotFound);
  afterCommit(db, () => forgetCachedSessions({ idHash: row.idHash }));
  return { message: AUTH_SERVER_MESSAGES.sessionRevoked, wasCurrent: row.idHash === current.idHash };
}

export async function deleteOtherSessions(
  db: DbOrTx,
  userId: string,
  current: SessionRef,
): Promise<MessageResponse & { revoked: number }> {
  const revoked = await deleteUserSessions(db, userId, { exceptIdHash: current.idHash });
  return { message: AUTH_SERVER_MESSAGES.otherSessionsRevoked, revoked };
}
