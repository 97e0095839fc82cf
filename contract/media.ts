import { z } from "zod";

// Answers that are not JSON: files the server streams, pages and redirects. Each route declares its content
// type here so the OpenAPI document and the route inventory know it; Fastify never runs a serializer over a
// stream, a buffer or a string of another type, so these schemas only describe.

/**
 * Bytes of a file, as OpenAPI writes a binary body. Typed `unknown` because the server hands Fastify a stream
 * (never serialised), while the document describes what arrives on the wire.
 */
const fileBytes = z.string().meta({ format: "binary" }) as z.ZodType<unknown>;

/** A CSV export, streamed as an attachment. */
export const csvDownload = {
  description: "CSV file (attachment)",
  content: { "text/csv": { schema: fileBytes } },
};

/** Form 1099-INT returns in Publication 1220's layout: 750-byte ASCII records, each ending in CR LF. */
export const pub1220Download = {
  description: "Publication 1220 file (attachment)",
  content: { "text/plain": { schema: fileBytes } },
};

/** A PDF (statement or receipt), streamed as an attachment. */
export const pdfDownload = {
  description: "PDF file (attachment)",
  content: { "application/pdf": { schema: fileBytes } },
};

/** A contract's file answer (contract/endpoint.ts `file`): the bytes of an attachment of that type. */
export const fileDownload = (type: string) => ({
  description: "File (attachment)",
  content: { [type]: { schema: fileBytes } },
});

/** An uploaded document, streamed with the type sniffed at upload (spec: JPEG, PNG, WebP, GIF or PDF). */
export const storedFile = {
  description: "The uploaded file, in the type sniffed when it was uploaded",
  content: Object.fromEntries(
    ["image/jpeg", "image/png", "image/webp", "image/gif", "application/pdf"].map((type) => [
      type,
      { schema: fileBytes },
    ]),
  ),
};

/** A server-rendered HTML page (the dev mailbox). */
export const htmlPage = {
  description: "HTML page",
  content: { "text/html": { schema: z.string() } },
};

/** Plain text (the Prometheus metrics exposition). */
export const plainText = {
  description: "Plain text",
  content: { "text/plain": { schema: z.string() } },
};

/** A redirect with no body; the target is in the Location header. */
export const redirect = z.null().meta({ description: "Redirect (see the Location header)" });
