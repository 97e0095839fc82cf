import type { FastifyReply } from "fastify";

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
