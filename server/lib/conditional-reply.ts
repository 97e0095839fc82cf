import { hash } from "node:crypto";
import type { FastifyReply } from "fastify";

/** Either a fresh body with its ETag, or "not modified" (the route answers 304 with no body). */
export type Conditional<T> =
  | { etag: string; notModified: true }
  | { etag: string; notModified: false; body: T };

/** True when an If-None-Match header names this ETag (weak or strong, in a list, or "*"). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === etag || t === "*");
}

/**
 * A strong ETag for one user's view of something: the user id is in the hash, so a copy another
 * account left in the same browser tab never validates.
 */
export function userEtag(kind: string, userId: string, version: string): string {
  const digest = hash("sha256", `${kind}\n${userId}\n${version}`, "base64url");
  return `"${kind}-${digest.slice(0, 27)}"`;
}

/**
 * The repeat poll: `version` is one cheap query; only when the client's copy is stale does `load` run.
 */
export async function loadConditional<T>(
  ifNoneMatch: string | undefined,
  etag: string,
  load: () => Promise<T>,
): Promise<Conditional<T>> {
  if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
  return { etag, notModified: false, body: await load() };
}

/** Writes the ETag and, when the client's copy is current, a bodyless 304; otherwise hands back the body. */
export function sendConditional<T>(
  reply: FastifyReply,
  result: { etag: string; notModified: boolean },
  body: () => T,
) {
  reply.header("etag", result.etag);
  if (result.notModified) return reply.code(304).send();
  return body();
}

/** The route's side of `loadConditional`: the ETag header, then a bodyless 304 or the body. */
export function sendConditionalResult<T>(reply: FastifyReply, result: Conditional<T>) {
  reply.header("etag", result.etag);
  if (result.notModified) return reply.code(304).send();
  return result.body;
}
