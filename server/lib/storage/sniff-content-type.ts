import type { StoredContentType } from "@/contract/kyc";

/** Bytes needed to recognise every accepted type (WebP needs 12). */
export const SNIFF_BYTES = 16;

const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

/**
 * The type the bytes really are, from their magic numbers, or null when they are none of the accepted ones.
 * The declared Content-Type and the file name are never trusted.
 */
export function sniffContentType(head: Buffer): StoredContentType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    return "image/webp";
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46])) return "application/pdf";
  return null;
}
