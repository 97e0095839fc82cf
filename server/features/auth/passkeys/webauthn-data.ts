import { createHash } from "node:crypto";

export const CHALLENGE_TTL_SECONDS = 5 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/** The WebAuthn user handle: the account's uuid as its 16 bytes (no e-mail or name on the authenticator's side). */
export function userHandleBytes(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ""), "hex"));
}

export function userHandleOf(userId: string): string {
  return Buffer.from(userHandleBytes(userId)).toString("base64url");
}

/** The clientDataJSON fields we look at before the library does, or null when it is not readable JSON. */
export function readClientData(clientDataJSON: string): { challenge: string; origin: string } | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as unknown;
    if (!parsed || typeof parsed !== "object") return null;
    const { challenge, origin } = parsed as { challenge?: unknown; origin?: unknown };
    if (typeof challenge !== "string" || typeof origin !== "string") return null;
    // The challenge goes into a query: only what we could have issued (base64url) gets that far.
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(challenge) || origin.length > 2048) return null;
    return { challenge, origin };
  } catch {
    return null;
  }
}

/**
 * The challenge the browser signs: SHA-256(nonce || binding). With a binding (e.g. a hash of a transfer's
 * fields) the signature only verifies for the same binding recomputed at submission.
 */
export function boundChallenge(nonceHex: string, bindingHex: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    createHash("sha256").update(Buffer.from(nonceHex, "hex")).update(Buffer.from(bindingHex, "hex")).digest(),
  );
}

export const isHex = (value: string) => value.length % 2 === 0 && /^[0-9a-f]*$/i.test(value);
