import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { SECURITY_MESSAGES } from "@/contract/security";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import type { Db, Tx } from "@/server/db/client";
import { idempotencyKeys } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";

/** What a key may be: 1 to 255 visible ASCII characters (the transfer routes' rule). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const KEY = IDEMPOTENCY_KEY_PATTERN;

/**
 * A money movement's required key (a $tag payment, a savings move or closing): 400 idempotency_key_required
 * without one, 400 when it is not 1 to 255 visible characters.
 */
export function requiredIdempotencyKey(key: string | undefined): string {
  if (key === undefined)
    throw new AppError("idempotency_key_required", SECURITY_MESSAGES.idempotencyKeyRequired);
  if (!KEY.test(key)) throw new AppError("VALIDATION", TRANSFER_MESSAGES.idempotencyKeyInvalid);
  return key;
}

/** A write's answer: its status and body, and whether it is the first answer replayed. */
export interface KeyedAnswer<T> {
  statusCode: number;
  body: T;
  replayed: boolean;
}

/**
 * The request's optional Idempotency-Key header: undefined without one, a 400 when it is not 1 to 255 visible
 * characters.
 */
export function optionalIdempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers["idempotency-key"];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw new AppError("VALIDATION", TRANSFER_MESSAGES.idempotencyKeyInvalid);
  return key;
}

/**
 * Runs one write at most once per (caller, scope, key) (decision 027). A client whose request ended without a
 * definite answer (a broken connection, a 503 `retryable` during a failover) sends it again with the same key
 * and gets the first answer back, or the write made now if the first never committed: never two.
 *
 * The key is claimed first, inside the write's own transaction: a second request with the same key waits on
 * that row until the first commits (then replays its answer) or rolls back (then runs). Only a 2xx is kept; a
 * refusal leaves nothing, so the same request may be tried again once whatever refused it has changed. The
 * stored key is `scope` + a space + the client's key; a client's key has no space, so a chat message's key
 * can never replay a transfer's answer (transfers keep the bare key, decision 001). Without a key the write
 * simply runs in the transaction.
 */
export async function onceByKey<T>(
  db: Db,
  call: { userId: string; scope: string; key: string | undefined; request: unknown },
  write: (tx: Tx) => Promise<{ statusCode: number; body: T }>,
): Promise<KeyedAnswer<T>> {
  const { userId, scope, key } = call;
  if (key === undefined) return db.transaction(async (tx) => ({ ...(await write(tx)), replayed: false }));
  const stored = `${scope} ${key}`;
  const requestHash = createHash("sha256")
    .update(JSON.stringify([scope, call.request]))
    .digest("hex");
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId, key: stored, requestHash, statusCode: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [first] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, stored)));
      if (!first) throw new Error("an idempotency key vanished while it was read");
      if (first.requestHash !== requestHash) {
        throw new AppError("CONFLICT", "This Idempotency-Key was already used for a different request");
      }
      return { statusCode: first.statusCode, body: first.response as T, replayed: true };
    }
    const answer = await write(tx);
    // What a replay sends is the JSON the first reply sent: dates as strings, no undefined fields.
    const response = JSON.parse(JSON.stringify(answer.body)) as T;
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: answer.statusCode, response })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, stored)));
    return { ...answer, replayed: false };
  });
}

/** Sends a keyed answer: its status, the replay header when it is the first answer again, and the body. */
export function sendKeyed<T>(reply: FastifyReply, answer: KeyedAnswer<T>) {
  if (answer.replayed) reply.header("idempotent-replayed", "true");
  return reply.status(answer.statusCode).send(answer.body);
}
