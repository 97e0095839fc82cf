import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

const FIELD_VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new Error("Encryption key must be 32 bytes");
}

/** AES-256-GCM with a fresh 12-byte IV per value; stored as `v1:` + base64(iv ‖ tag ‖ ciphertext). */
export function encryptField(key: Buffer, plaintext: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${FIELD_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
}

/** Throws when the value was tampered with or encrypted under another key. */
export function decryptField(key: Buffer, stored: string): string {
  assertKey(key);
  const [version, body] = stored.split(":");
  if (version !== FIELD_VERSION || !body) throw new Error("Unknown encrypted field format");
  const raw = Buffer.from(body, "base64");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("Encrypted field is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    "utf8",
  );
}

/** A sub-key for one purpose, so the blind-index key is never the encryption key itself. */
export function deriveKey(key: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `pillar/${label}`, 32));
}

/**
 * Deterministic HMAC-SHA256 of a normalised value under a key derived for `label`: equal inputs give equal
 * indexes (so a UNIQUE index can find duplicates) without the table revealing the value.
 */
export function blindIndex(key: Buffer, label: string, value: string): string {
  return createHmac("sha256", deriveKey(key, `blind-index/${label}`))
    .update(value, "utf8")
    .digest("hex");
}

const mac = (secret: string, payload: string, boundTo: string) =>
  createHmac("sha256", secret).update(`${payload}\n${boundTo}`).digest();

/**
 * `payload.signature` with HMAC-SHA256 under `secret`; the payload must not contain a dot. `boundTo` (e.g. a
 * user id) is signed but not carried, so the token only verifies for that same value.
 */
export function signToken(secret: string, payload: string, boundTo = ""): string {
  if (payload.includes(".")) throw new Error("Token payload must not contain '.'");
  return `${payload}.${mac(secret, payload, boundTo).toString("base64url")}`;
}

/** The payload when the signature is valid (for the same `boundTo`), otherwise null; compares in constant time. */
export function verifyToken(secret: string, token: string, boundTo = ""): string | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = mac(secret, payload, boundTo);
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null;
}
