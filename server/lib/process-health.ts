/** Codes that mean this process (not a backing service) ran out of something a restart gives back. */
const EXHAUSTION_CODES = new Set(["EMFILE", "ENFILE"]);

/** How long one failure to open a file descriptor keeps /healthz unhealthy. */
export const EXHAUSTION_MEMORY_MS = 30_000;

/** The exhaustion code in an error or its causes (Drizzle and pg wrap the socket's error), if any. */
export function resourceErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && EXHAUSTION_CODES.has(code)) return code;
  }
  return undefined;
}

/**
 * Whether the app's process failed to open a socket or file recently. Such a process cannot serve anything that
 * needs the database or storage while still answering cheap probes, so /healthz must say so and let the
 * orchestrator restart it. A database that is merely down is /readyz's business, not this. One per app
 * (`app.processHealth`): in production an app is the process; tests run many apps in one process.
 */
export class ProcessHealth {
  private lastExhaustionAt = 0;

  /** Remembers an out-of-file-descriptors failure; true when `err` was one. */
  note(err: unknown, now = Date.now()): boolean {
    if (!resourceErrorCode(err)) return false;
    this.lastExhaustionAt = now;
    return true;
  }

  isStarved(now = Date.now()): boolean {
    return this.lastExhaustionAt > 0 && now - this.lastExhaustionAt < EXHAUSTION_MEMORY_MS;
  }
}
