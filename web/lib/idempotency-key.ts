/** A fresh random Idempotency-Key (a UUID v4). Falls back to getRandomValues where randomUUID is missing (plain http). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One Idempotency-Key per thing being sent. The same text sent again after an unknown outcome (a 5xx such as
 * 503 `retryable`, or no answer at all) reuses the key, so the server answers with what it stored instead of
 * posting it twice (decision 027); once the server answered (a success, or a 4xx refusal that stored nothing)
 * the next send gets a new key.
 */
export class ResendKeys {
  private pending: { what: string; key: string } | null = null;

  keyFor(what: string): string {
    if (this.pending?.what !== what) this.pending = { what, key: newIdempotencyKey() };
    return this.pending.key;
  }

  /** After an answer: forget the key unless the outcome is unknown (no status, or 5xx). */
  settled(status?: number): void {
    if (status !== undefined && status < 500) this.pending = null;
  }
}
