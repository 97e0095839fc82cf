import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_REASONS, type ErrorReason, isErrorReason } from "@/contract/error-reasons";
import { errorBody, errorBodyByReason, errorFlags, errorReason } from "@/contract/errors";
import { AppError, ERROR_STATUS, isUnavailableError } from "@/server/lib/errors";
import { PROJECT_ROOT } from "@/server/lib/project-root";

// Decision 023: every `true` flag on the wire comes from a reason in contract/error-reasons.ts, and the table's
// status is the one its code has.

/** The `true` flags of the contract (the details, such as `availableBalance` or `methods`, excluded). */
const FLAG_NAMES = Object.entries(errorFlags.shape)
  .filter(([, schema]) => {
    const inner = schema.unwrap();
    return inner.type === "literal" && inner.value === true;
  })
  .map(([name]) => name);
const REASONS = Object.entries(ERROR_REASONS) as [ErrorReason, (typeof ERROR_REASONS)[ErrorReason]][];

/**
 * `flag: true` outside an error, where the name only happens to be a flag's: the login answer's own
 * field (a 200 asking for the second step) and the users column a freeze sets.
 */
const NOT_ERRORS = [
  { file: "server/features/auth/login.ts", flag: "secondFactorRequired" },
  { file: "server/features/security/freeze-account.ts", flag: "passwordResetRequired" },
  { file: "server/features/security/send-block-undo.ts", flag: "passwordResetRequired" },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const setsFlag = (text: string, flag: string) => new RegExp(`\\b${flag}\\s*:\\s*true\\b`).test(text);

describe("the reason table", () => {
  it("knows the contract's flags", () => {
    expect(FLAG_NAMES.length).toBeGreaterThan(60);
    expect(FLAG_NAMES).toContain("withdrawalLimitExceeded");
    expect(FLAG_NAMES).not.toContain("availableBalance");
  });

  it("gives every reason a flag, a code and the status that code has", () => {
    for (const [reason, entry] of REASONS) {
      expect(reason, reason).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(entry.flags.length, reason).toBeGreaterThan(0);
      for (const flag of entry.flags) expect(FLAG_NAMES, `${reason}: ${flag}`).toContain(flag);
      expect(entry.status, reason).toBe(ERROR_STATUS[entry.code]);
      expect(entry.status, reason).toBeGreaterThanOrEqual(400);
    }
  });

  it("sets every flag of the contract through at least one reason", () => {
    const produced = new Set<string>(REASONS.flatMap(([, entry]) => entry.flags));
    expect(FLAG_NAMES.filter((flag) => !produced.has(flag))).toEqual([]);
  });

  it("is the error body's reason enum", () => {
    expect(errorReason.options).toEqual(Object.keys(ERROR_REASONS));
    expect(errorBody.shape.reason.unwrap().options).toEqual(errorReason.options);
    expect(isErrorReason("lookalike_address")).toBe(true);
    expect(isErrorReason("lookalikeAddress")).toBe(false);
    expect(isErrorReason("toString")).toBe(false);
  });
  it("is a union keyed by reason: each reason's body needs its code and flags; a bare code has no reason", () => {
    const envelope = { message: "No", requestId: "r1" };
    expect(errorBodyByReason.options).toHaveLength(REASONS.length + 1);
    const body = (error: AppError) => ({
      ...envelope,
      code: error.code,
      reason: error.reason,
      ...error.flags,
    });
    for (const [reason] of REASONS) {
      expect(errorBodyByReason.safeParse(body(new AppError(reason, "No"))).success, reason).toBe(true);
    }
    const short = new AppError("insufficient_funds", "No", { availableBalance: "$1.00" });
    expect(errorBodyByReason.safeParse(body(short)).success).toBe(true);
    expect(errorBodyByReason.safeParse({ ...body(short), insufficientFunds: undefined }).success).toBe(false);
    expect(errorBodyByReason.safeParse({ ...body(short), code: "CONFLICT" }).success).toBe(false);
    expect(errorBodyByReason.safeParse({ ...envelope, code: "NOT_FOUND" }).success).toBe(true);
  });
});

describe("flags are set only through a reason", () => {
  it("no server or script source writes `flag: true` itself (the table does)", () => {
    const offenders: string[] = [];
    for (const root of ["server", "scripts"]) {
      for (const file of sourceFiles(path.join(PROJECT_ROOT, root))) {
        const relative = path.relative(PROJECT_ROOT, file).split(path.sep).join("/");
        const text = fs.readFileSync(file, "utf8");
        for (const flag of FLAG_NAMES) {
          if (!setsFlag(text, flag)) continue;
          if (NOT_ERRORS.some((allowed) => allowed.file === relative && allowed.flag === flag)) continue;
          offenders.push(`${relative}: ${flag}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the check sees the forms it looks for, and its exceptions still exist", () => {
    expect(setsFlag('new AppError("CONFLICT", m, { lookalikeAddress: true })', "lookalikeAddress")).toBe(
      true,
    );
    expect(setsFlag("{\n  ssnDuplicate:true,\n}", "ssnDuplicate")).toBe(true);
    expect(setsFlag("{ ssnDuplicate: false }", "ssnDuplicate")).toBe(false);
    for (const { file, flag } of NOT_ERRORS) {
      expect(setsFlag(fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8"), flag), file).toBe(true);
    }
  });

  it("the web branches on the reason: no web source asks for a flag (hasFlag)", () => {
    const offenders = sourceFiles(path.join(PROJECT_ROOT, "web"))
      .filter((file) => /\.hasFlag\(/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.relative(PROJECT_ROOT, file));
    expect(offenders).toEqual([]);
  });

  it("AppError derives code and flags from the reason, keeps details and drops a smuggled flag", () => {
    const error = new AppError("insufficient_funds", "Insufficient funds", {
      availableBalance: "$1.00",
      ...({ lookalikeAddress: true } as object),
    });
    expect(error).toMatchObject({ code: "UNPROCESSABLE", reason: "insufficient_funds", status: 422 });
    expect(error.flags).toEqual({ insufficientFunds: true, availableBalance: "$1.00" });
    expect(error.details).toEqual({ availableBalance: "$1.00" });
  });

  it("a bare code carries no reason and no flag; a wrapping reason keeps the wrapped one's flags", () => {
    const plain = new AppError("NOT_FOUND", "Not found");
    expect(plain).toMatchObject({ code: "NOT_FOUND", reason: undefined, flags: {}, status: 404 });
    const stale = new AppError("stale_approval", "Balance changed", {}, "balance_changed");
    expect(stale).toMatchObject({ code: "CONFLICT", reason: "stale_approval" });
    expect(stale.flags).toEqual({ staleApproval: true, balanceChanged: true });
  });
});

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
