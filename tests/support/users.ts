import { randomBytes } from "node:crypto";
import { beforeAll } from "vitest";
import type { StaffRole } from "@/contract/staff";
import type { App } from "@/server/app";
import type { Database } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { hashPassword } from "@/server/lib/passwords";
import { createSession, type UserRow } from "@/server/lib/session";
import { lateBound } from "@/tests/support/late-bound";
import type { SmtpSink } from "@/tests/support/smtp-sink";
import type { TestApp } from "@/tests/support/test-app";

/** Strong enough for zxcvbn, so fixtures never trip the common-password refusal. */
export const TEST_PASSWORD = "Quartz-Meadow-47-lantern";

export interface TestUserInput {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  pillarTag?: string;
  phoneNumber?: string | null;
  /** Shorthand for staffRoles ["owner"]. */
  isAdmin?: boolean;
  staffRoles?: StaffRole[];
}

export interface SignedInUser {
  user: UserRow;
  email: string;
  password: string;
  /** Value for a `cookie` request header, e.g. `t.app.inject({ headers: { cookie } })`. */
  cookie: string;
}

export function uniqueSuffix(): string {
  return randomBytes(4).toString("hex");
}

export function signupBody(overrides: TestUserInput = {}) {
  const suffix = uniqueSuffix();
  return {
    email: overrides.email ?? `user_${suffix}@example.com`,
    password: overrides.password ?? TEST_PASSWORD,
    firstName: overrides.firstName ?? "Ada",
    lastName: overrides.lastName ?? "Lovelace",
    pillarTag: overrides.pillarTag ?? `ada_${suffix}`,
    phoneNumber: overrides.phoneNumber ?? "+1 212 555 0100",
  };
}

/** The `cookie` header value from a response's Set-Cookie for the session (sid or __Host-sid). */
export function sessionCookieFrom(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => /^(__Host-)?sid=[^;]+/.test(c));
  if (!found) throw new Error(`No session cookie in ${JSON.stringify(all)}`);
  return found.split(";")[0]!;
}

/**
 * One argon2id hash per fixture password, reused by every user the fixture writes with it: a hash costs ~30 ms
 * of CPU, and the API layers write a fixture user in most tests. Each is a real hash that login verifies; the
 * app's own hashing (sign-up, password change and reset) is what the auth tests exercise over HTTP.
 */
const fixtureHashes = new Map<string, Promise<string>>();
function fixtureHash(password: string): Promise<string> {
  let hashed = fixtureHashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    fixtureHashes.set(password, hashed);
  }
  return hashed;
}

/**
 * A verified user written straight to the database with a live session: the quick fixture for features
 * that need a signed-in customer (or admin) but are not about sign-up.
 */
export async function createVerifiedUser(
  database: Database,
  input: TestUserInput = {},
): Promise<SignedInUser> {
  const body = signupBody(input);
  const verifiedAt = new Date();
  const [user] = await database.db
    .insert(users)
    .values({
      email: body.email.toLowerCase(),
      firstName: body.firstName,
      lastName: body.lastName,
      pillarTag: body.pillarTag.toLowerCase(),
      phoneNumber: input.phoneNumber === null ? null : body.phoneNumber,
      passwordHash: await fixtureHash(body.password),
      isEmailVerified: true,
      passwordSetAt: verifiedAt,
      emailVerifiedAt: verifiedAt,
      staffRoles: input.staffRoles ?? (input.isAdmin ? ["owner"] : []),
    })
    .returning();
  const { token } = await createSession(database.db, {
    userId: user!.id,
    userAgent: "vitest",
    ip: "127.0.0.1",
  });
  return { user: user!, email: user!.email, password: body.password, cookie: `sid=${token}` };
}

export async function createAdminUser(database: Database, input: TestUserInput = {}): Promise<SignedInUser> {
  return createVerifiedUser(database, { ...input, isAdmin: true });
}

/** Logs in over HTTP and returns the session cookie header value. */
export async function logIn(
  app: App,
  email: string,
  password: string,
  remoteAddress?: string,
): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookieFrom(res.headers["set-cookie"]);
}

/**
 * The whole journey over HTTP: register, read the code from the mail sink, verify, log in.
 * Needs an app started with SMTP_URL = sink.url.
 */
export async function signUpAndVerify(
  app: App,
  sink: SmtpSink,
  input: TestUserInput = {},
): Promise<Omit<SignedInUser, "user"> & { userId: string }> {
  const body = signupBody(input);
  const reg = await app.inject({ method: "POST", url: "/api/auth/register", payload: body });
  if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const mail = await sink.waitForMail(body.email, (m) => /verification code/i.test(m.subject));
  const verify = await app.inject({
    method: "POST",
    url: "/api/auth/verify-email",
    payload: { email: body.email, otp: mail.code },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.statusCode} ${verify.body}`);
  const cookie = await logIn(app, body.email, body.password);
  const me = await app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
  return { userId: me.json().id, email: body.email.toLowerCase(), password: body.password, cookie };
}

/**
 * A verified user (or staff member, with `staffRoles`/`isAdmin`) created once for the whole file, in a
 * beforeAll declared after `setUpTestApp`.
 */
export function setUpVerifiedUser(t: TestApp, input: TestUserInput = {}): SignedInUser {
  const user = lateBound<SignedInUser>("A file's user");
  beforeAll(async () => {
    user.set(await createVerifiedUser(t.database, input));
  });
  return user.value;
}

export function setUpAdminUser(t: TestApp, input: TestUserInput = {}): SignedInUser {
  return setUpVerifiedUser(t, { ...input, isAdmin: true });
}
