import { describe, expect, it } from "vitest";
import { isUnavailableError } from "@/server/lib/errors";

/** What node-postgres and Drizzle throw, as plain objects: an error with a code, possibly wrapped once. */
const pgError = (code: string, message = "failed") => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: insert …"), { cause });

describe("isUnavailableError: what a failover looks like to the app", () => {
  it("counts a connection lost mid-statement or mid-COMMIT (the primary died) as unavailable", () => {
    expect(isUnavailableError(wrapped(new Error("Connection terminated unexpectedly")))).toBe(true);
    expect(isUnavailableError(pgError("57P01", "terminating connection due to administrator command"))).toBe(
      true,
    );
    expect(isUnavailableError(wrapped(pgError("ECONNREFUSED")))).toBe(true);
  });

  it("counts a write refused by a standby or a primary being demoted (25006) as unavailable, never as a bug", () => {
    const readOnly = pgError("25006", "cannot execute INSERT in a read-only transaction");
    expect(isUnavailableError(readOnly)).toBe(true);
    expect(isUnavailableError(wrapped(readOnly))).toBe(true);
  });

  it("leaves the database's definite refusals alone", () => {
    expect(isUnavailableError(wrapped(pgError("23505", "duplicate key value")))).toBe(false);
    expect(isUnavailableError(pgError("40001", "could not serialize access"))).toBe(false);
    expect(isUnavailableError(new Error("boom"))).toBe(false);
  });
});
