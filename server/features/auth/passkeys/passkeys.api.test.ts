import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PASSKEY_MESSAGES } from "@/contract/passkeys";
import { authChallenges, passkeys, users } from "@/server/db/schema";
import {
  hasPasskeys,
  startPasskeyProof,
  verifyPasskeyProof,
} from "@/server/features/auth/passkeys/passkey-proof";
import { AppError } from "@/server/lib/errors";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { createTestApp, setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, sessionCookieFrom } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));

type Json = Record<string, unknown>;
const inject = (
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  cookie?: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });

async function registrationOptions(cookie: string) {
  const res = await inject("POST", "/api/auth/passkeys/registration-options", cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A fresh step-up for this session, signed by one of the user's passkeys (as the browser's step-up dialog does). */
async function stepUpWithPasskey(who: SignedInUser, authenticator: SoftwareAuthenticator) {
  const start = await inject("POST", "/api/auth/step-up/passkey-options", who.cookie);
  expect(start.statusCode, start.body).toBe(200);
  const { challengeId, options } = start.json();
  const res = await inject("POST", "/api/auth/step-up", who.cookie, {
    secondFactor: { method: "passkey", challengeId, response: authenticator.assert(options) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Marks a session stepped up directly: for tests about limits, not about proofs. */
async function markSteppedUp(who: SignedInUser) {
  const idHash = createHash("sha256").update(who.cookie.replace(/^sid=/, "")).digest("hex");
  await t.database.db.insert(authChallenges).values({
    tokenHash: idHash,
    userId: who.user.id,
    purpose: "step_up",
    expiresAt: sql`now() + interval '5 minutes'`,
  });
}

/** Options, the authenticator's answer and the POST, as the browser does it (a step-up first once a factor exists). */
/** The authenticator holding each user's first passkey: the one a later step-up is signed with. */
const firstAuthenticator = new Map<string, SoftwareAuthenticator>();

async function addPasskey(who: SignedInUser, authenticator: SoftwareAuthenticator, name = "My laptop") {
  const first = await inject("POST", "/api/auth/passkeys/registration-options", who.cookie);
  if (first.statusCode === 403 && first.json().stepUpRequired) {
    await stepUpWithPasskey(who, firstAuthenticator.get(who.user.id) ?? authenticator);
  }
  const options = await registrationOptions(who.cookie);
  const { response, credential } = authenticator.register(options);
  const res = await inject("POST", "/api/auth/passkeys", who.cookie, { name, response });
  expect(res.statusCode, res.body).toBe(200);
  if (!firstAuthenticator.has(who.user.id)) firstAuthenticator.set(who.user.id, authenticator);
  return { passkey: res.json() as { id: string; name: string }, credential };
}

async function passwordlessOptions() {
  const res = await inject("POST", "/api/auth/passkey-login/options");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { challengeId: string; options: { challenge: string; rpId: string } };
}

const list = async (cookie: string) => (await inject("GET", "/api/auth/passkeys", cookie)).json() as Json[];

describe("registering and managing passkeys", () => {
  it("registers two passkeys, lists them without key material, renames and removes one, mailing each change", async () => {
    const ada = await createVerifiedUser(t.database);
    const laptop = new SoftwareAuthenticator();
    const phone = new SoftwareAuthenticator({ synced: true, counts: false });
    const first = await addPasskey(ada, laptop, "  Chrome on Linux  ");
    await addPasskey(ada, phone, "iPhone");
    const added = await sink.waitForMail(ada.email, (m) => /passkey was added/i.test(m.subject));
    expect(added.text).toContain('"Chrome on Linux"');
    expect(added.text).toMatch(/This wasn't me: \S+\/this-wasnt-me#token=/);

    const items = await list(ada.cookie);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      name: "Chrome on Linux",
      // It signed the step-up that allowed the second one to be added.
      lastUsedAt: expect.any(String),
      deviceType: "singleDevice",
      backedUp: false,
    });
    expect(items[1]).toMatchObject({ name: "iPhone", deviceType: "multiDevice", backedUp: true });
    expect(Object.keys(items[0]!).sort()).toEqual(
      ["backedUp", "createdAt", "deviceType", "id", "lastUsedAt", "name"].sort(),
    );
    expect(JSON.stringify(items)).not.toContain(first.credential.id);

    const renamed = await inject("PATCH", `/api/auth/passkeys/${first.passkey.id}`, ada.cookie, {
      name: "Work laptop",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: first.passkey.id, name: "Work laptop" });

    const removed = await inject("DELETE", `/api/auth/passkeys/${first.passkey.id}`, ada.cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: PASSKEY_MESSAGES.removed });
    expect((await list(ada.cookie)).map((p) => p.name)).toEqual(["iPhone"]);
    const gone = await sink.waitForMail(ada.email, (m) => /passkey was removed/i.test(m.subject));
    expect(gone.text).toContain('"Work laptop"');
    expect(await hasPasskeys(t.database.db, ada.user.id)).toBe(true);
  });

  it("answers 404 for another user's passkey on rename and delete, and leaves it untouched", async () => {
    const owner = await createVerifiedUser(t.database);
    const thief = await createVerifiedUser(t.database);
    const { passkey } = await addPasskey(owner, new SoftwareAuthenticator(), "Owner's key");
    const rename = await inject("PATCH", `/api/auth/passkeys/${passkey.id}`, thief.cookie, {
      name: "Mine now",
    });
    const remove = await inject("DELETE", `/api/auth/passkeys/${passkey.id}`, thief.cookie);
    const unknown = await inject("DELETE", `/api/auth/passkeys/${crypto.randomUUID()}`, thief.cookie);
    expect([rename.statusCode, remove.statusCode, unknown.statusCode]).toEqual([404, 404, 404]);
    expect(rename.json().message).toBe(unknown.json().message);
    expect((await list(owner.cookie)).map((p) => p.name)).toEqual(["Owner's key"]);
    expect((await inject("DELETE", "/api/auth/passkeys/not-a-uuid", thief.cookie)).statusCode).toBe(404);
  });

  it("refuses a replayed registration, a reused challenge and a second registration of the same credential", async () => {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    const options = await registrationOptions(ada.cookie);
    const { response, credential } = authenticator.register(options);
    const ok = await inject("POST", "/api/auth/passkeys", ada.cookie, { name: "Key", response });
    expect(ok.statusCode).toBe(200);
    const replay = await inject("POST", "/api/auth/passkeys", ada.cookie, { name: "Key again", response });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(PASSKEY_MESSAGES.challengeExpired);

    // The options now exclude the credential; an authenticator that ignores that is refused with 409.
    await stepUpWithPasskey(ada, authenticator);
    const again = await registrationOptions(ada.cookie);
    expect(again.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([credential.id]);
    const dup = authenticator.register(again, { reuse: credential });
    const conflict = await inject("POST", "/api/auth/passkeys", ada.cookie, {
      name: "Dup",
      response: dup.response,
    });
    expect(conflict.statusCode, conflict.body).toBe(409);

    // Someone else cannot register that credential (or spend Ada's challenge) either.
    const bob = await createVerifiedUser(t.database);
    const stolen = authenticator.register(await registrationOptions(ada.cookie), { reuse: credential });
    const bobTry = await inject("POST", "/api/auth/passkeys", bob.cookie, {
      name: "x",
      response: stolen.response,
    });
    expect(bobTry.statusCode).toBe(400);
    expect(await list(bob.cookie)).toEqual([]);
  });

  it("refuses an expired registration challenge", async () => {
    const ada = await createVerifiedUser(t.database);
    const options = await registrationOptions(ada.cookie);
    await t.database.db
      .update(authChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authChallenges.challenge, options.challenge));
    const { response } = new SoftwareAuthenticator().register(options);
    const res = await inject("POST", "/api/auth/passkeys", ada.cookie, { name: "Late", response });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PASSKEY_MESSAGES.challengeExpired);
    expect(await list(ada.cookie)).toEqual([]);
  });

  it.each([
    ["another origin", { origin: "https://evil.example" }],
    ["another RP id", { rpId: "evil.example" }],
    ["an assertion's type", { type: "webauthn.get" }],
  ])("refuses a registration made for %s", async (_what, overrides) => {
    const ada = await createVerifiedUser(t.database);
    const { response } = new SoftwareAuthenticator().register(
      await registrationOptions(ada.cookie),
      overrides,
    );
    const res = await inject("POST", "/api/auth/passkeys", ada.cookie, { name: "Bad", response });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: PASSKEY_MESSAGES.registrationFailed, passkeyInvalid: true });
    expect(await list(ada.cookie)).toEqual([]);
  });

  it("validates names: trimmed, 1–60 characters, no control characters", async () => {
    const ada = await createVerifiedUser(t.database);
    const { passkey } = await addPasskey(ada, new SoftwareAuthenticator());
    for (const name of ["   ", "x".repeat(61), "bad\u0000name", "line\nbreak", "c1\u0085control"]) {
      const res = await inject("PATCH", `/api/auth/passkeys/${passkey.id}`, ada.cookie, { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
    }
    expect((await list(ada.cookie))[0]!.name).toBe("My laptop");
  });

  it("answers garbage bodies with 400, never 500", async () => {
    const ada = await createVerifiedUser(t.database);
    for (const payload of [
      {},
      { name: "x" },
      { name: "x", response: {} },
      { name: "x", response: "abc" },
      [],
    ]) {
      const res = await inject("POST", "/api/auth/passkeys", ada.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const garbled = {
      name: "x",
      response: {
        id: "abc",
        rawId: "abc",
        type: "public-key",
        response: { clientDataJSON: "e30", attestationObject: "AAAA" },
      },
    };
    expect((await inject("POST", "/api/auth/passkeys", ada.cookie, garbled)).statusCode).toBe(400);
    for (const payload of [
      {},
      { challengeId: "x" },
      { challengeId: crypto.randomUUID(), response: { id: 1 } },
    ]) {
      const res = await inject("POST", "/api/auth/passkey-login", undefined, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("caps an account at 20 passkeys", async () => {
    const ada = await createVerifiedUser(t.database);
    const options = await registrationOptions(ada.cookie);
    await t.database.db.insert(passkeys).values(
      Array.from({ length: 20 }, (_, i) => ({
        userId: ada.user.id,
        credentialId: `cap-${ada.user.id}-${i}`,
        publicKey: "pQECAyYgASFYIA",
        name: `Key ${i}`,
      })),
    );
    await markSteppedUp(ada);
    const more = await inject("POST", "/api/auth/passkeys/registration-options", ada.cookie);
    expect(more.statusCode).toBe(409);
    expect(more.json()).toMatchObject({ tooManyPasskeys: true });
    // Options fetched before the cap was reached do not get around it.
    const { response } = new SoftwareAuthenticator().register(options);
    expect(
      (await inject("POST", "/api/auth/passkeys", ada.cookie, { name: "21st", response })).statusCode,
    ).toBe(409);
    expect(await list(ada.cookie)).toHaveLength(20);
  });

  it("needs a session for everything but passwordless sign-in", async () => {
    expect((await inject("GET", "/api/auth/passkeys")).statusCode).toBe(401);
    expect((await inject("POST", "/api/auth/passkeys/registration-options")).statusCode).toBe(401);
  });
});

describe("passwordless sign-in", () => {
  it("signs in with a discoverable passkey, sets a fresh session cookie and records the use", async () => {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    const { challengeId, options } = await passwordlessOptions();
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(options).not.toHaveProperty("allowCredentials.0");
    const response = authenticator.assert(options);
    const res = await inject("POST", "/api/auth/passkey-login", undefined, { challengeId, response });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: "Login successful",
      user: { id: ada.user.id, email: ada.email },
    });
    const cookie = sessionCookieFrom(res.headers["set-cookie"]);
    expect(String(res.headers["set-cookie"])).toMatch(/pillar_signed_in=1;/);
    const me = await inject("GET", "/api/auth/user", cookie);
    expect(me.json().id).toBe(ada.user.id);
    expect((await list(ada.cookie))[0]!.lastUsedAt).not.toBeNull();

    // The same signed assertion again: the challenge is spent.
    const replay = await inject("POST", "/api/auth/passkey-login", undefined, { challengeId, response });
    expect(replay.statusCode).toBe(401);
  });

  it("ends the session the browser came with", async () => {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    const planted = await createVerifiedUser(t.database);
    const { challengeId, options } = await passwordlessOptions();
    const res = await inject("POST", "/api/auth/passkey-login", planted.cookie, {
      challengeId,
      response: authenticator.assert(options),
    });
    expect(res.statusCode).toBe(200);
    expect((await inject("GET", "/api/auth/user", planted.cookie)).statusCode).toBe(401);
  });

  it("refuses an unknown credential, an unverified user, no user verification, and a frozen account", async () => {
    const stranger = new SoftwareAuthenticator();
    stranger.register({ challenge: "x", rp: { id: "localhost" }, user: { id: "AAAA" } });
    const unknown = await passwordlessOptions();
    const res = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId: unknown.challengeId,
      response: stranger.assert(unknown.options),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: PASSKEY_MESSAGES.loginFailed, passkeyInvalid: true });

    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    const noUv = await passwordlessOptions();
    const noUvRes = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId: noUv.challengeId,
      response: authenticator.assert(noUv.options, { userVerified: false }),
    });
    expect(noUvRes.statusCode).toBe(401);

    // Frozen by "This wasn't me": as with a password, only a reset through the inbox lets the owner back in.
    await t.database.db
      .update(users)
      .set({ frozenAt: new Date(), passwordResetRequired: true })
      .where(eq(users.id, ada.user.id));
    const frozen = await passwordlessOptions();
    const frozenRes = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId: frozen.challengeId,
      response: authenticator.assert(frozen.options),
    });
    expect(frozenRes.statusCode).toBe(403);
    expect(frozenRes.json()).toMatchObject({ passwordResetRequired: true });
    expect(frozenRes.headers["set-cookie"]).toBeUndefined();

    await t.database.db
      .update(users)
      .set({ frozenAt: null, passwordResetRequired: false, isEmailVerified: false })
      .where(eq(users.id, ada.user.id));
    const unverified = await passwordlessOptions();
    const unverifiedRes = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId: unverified.challengeId,
      response: authenticator.assert(unverified.options),
    });
    expect(unverifiedRes.statusCode).toBe(401);
  });

  it.each([
    ["another origin", { origin: "https://evil.example" }],
    ["another RP id", { rpId: "evil.example" }],
    ["a registration's type", { type: "webauthn.create" }],
    ["another challenge", { challenge: Buffer.from("not the challenge").toString("base64url") }],
  ])("refuses an assertion made for %s", async (_what, overrides) => {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    const { challengeId, options } = await passwordlessOptions();
    const res = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId,
      response: authenticator.assert(options, overrides),
    });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.headers["set-cookie"]).toBeUndefined();
    // The refused try spent nothing: the right assertion still works on the same challenge.
    const good = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId,
      response: authenticator.assert(options),
    });
    expect(good.statusCode, good.body).toBe(200);
  });

  it("refuses an expired challenge", async () => {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    const { challengeId, options } = await passwordlessOptions();
    await t.database.db
      .update(authChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authChallenges.id, challengeId));
    const res = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId,
      response: authenticator.assert(options),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(PASSKEY_MESSAGES.challengeExpired);
  });

  it("refuses a signature counter that goes backwards", async () => {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    const login = async (counter?: number) => {
      const { challengeId, options } = await passwordlessOptions();
      return inject("POST", "/api/auth/passkey-login", undefined, {
        challengeId,
        response: authenticator.assert(options, counter === undefined ? {} : { counter }),
      });
    };
    expect((await login(5)).statusCode).toBe(200);
    expect((await login(3)).statusCode).toBe(401);
    expect((await login(5)).statusCode).toBe(401);
    expect((await login(6)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(passkeys).where(eq(passkeys.userId, ada.user.id));
    expect(row!.counter).toBe(6);
  });
});

describe("passkey proofs for other flows (startPasskeyProof / verifyPasskeyProof)", () => {
  const bindingOf = (fields: object) => createHash("sha256").update(JSON.stringify(fields)).digest("hex");
  const transfer = { amountCents: 1000, feeCents: 100, address: "0xabc", idempotencyKey: "k-1" };

  async function setUp() {
    const ada = await createVerifiedUser(t.database);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(ada, authenticator);
    return { ada, authenticator, deps: t.app.deps };
  }

  async function expectRefused(promise: Promise<unknown>) {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).flags).toMatchObject({ secondFactorInvalid: true });
    return err as AppError;
  }

  it("verifies a transfer assertion for the same binding once, and only for it", async () => {
    const { ada, authenticator, deps } = await setUp();
    const binding = bindingOf(transfer);
    const started = await startPasskeyProof(deps, { userId: ada.user.id, purpose: "transfer", binding });
    expect(started.options.allowCredentials).toHaveLength(1);
    const response = authenticator.assert(started.options);
    const base = {
      challengeId: started.challengeId,
      userId: ada.user.id,
      purpose: "transfer" as const,
      response,
    };

    // A changed amount recomputes another binding: the signature over the $10 transfer does not verify it.
    await expectRefused(
      verifyPasskeyProof(deps, { ...base, binding: bindingOf({ ...transfer, amountCents: 100_000 }) }),
    );
    await expectRefused(verifyPasskeyProof(deps, { ...base }));
    await expectRefused(verifyPasskeyProof(deps, { ...base, binding, purpose: "step_up" }));

    const ok = await verifyPasskeyProof(deps, { ...base, binding });
    expect(ok.userId).toBe(ada.user.id);
    expect(ok.passkeyId).toMatch(/^[0-9a-f-]{36}$/);
    const spent = await expectRefused(verifyPasskeyProof(deps, { ...base, binding }));
    expect(spent.message).toBe(PASSKEY_MESSAGES.challengeExpired);
  });

  it("refuses an assertion by another user's credential on a user-bound challenge", async () => {
    const { ada, deps } = await setUp();
    const mallory = await createVerifiedUser(t.database);
    const malloryKey = new SoftwareAuthenticator();
    await addPasskey(mallory, malloryKey);
    const started = await startPasskeyProof(deps, { userId: ada.user.id, purpose: "step_up" });
    const response = malloryKey.assert(started.options, { credential: malloryKey.credentials[0] });
    await expectRefused(
      verifyPasskeyProof(deps, {
        challengeId: started.challengeId,
        userId: ada.user.id,
        purpose: "step_up",
        response,
      }),
    );
    // Nor can Mallory's flow spend Ada's challenge by naming herself.
    await expectRefused(
      verifyPasskeyProof(deps, {
        challengeId: started.challengeId,
        userId: mallory.user.id,
        purpose: "step_up",
        response,
      }),
    );
  });

  it("keeps passwordless and second-factor login challenges apart", async () => {
    const { ada, authenticator, deps } = await setUp();
    const passwordless = await startPasskeyProof(deps, { userId: null, purpose: "login" });
    await expectRefused(
      verifyPasskeyProof(deps, {
        challengeId: passwordless.challengeId,
        userId: ada.user.id,
        purpose: "login",
        response: authenticator.assert(passwordless.options),
      }),
    );
    const second = await startPasskeyProof(deps, { userId: ada.user.id, purpose: "login" });
    expect(second.options.userVerification).toBe("preferred");
    const res = await inject("POST", "/api/auth/passkey-login", undefined, {
      challengeId: second.challengeId,
      response: authenticator.assert(second.options),
    });
    expect(res.statusCode).toBe(401);
    const ok = await verifyPasskeyProof(deps, {
      challengeId: second.challengeId,
      userId: ada.user.id,
      purpose: "login",
      response: authenticator.assert(second.options),
    });
    expect(ok.userId).toBe(ada.user.id);
  });

  it("refuses garbage responses and unknown challenge ids with a 400, not a crash", async () => {
    const { ada, deps } = await setUp();
    for (const response of [null, "x", {}, { id: "a", rawId: "a", type: "public-key", response: {} }]) {
      await expectRefused(
        verifyPasskeyProof(deps, {
          challengeId: crypto.randomUUID(),
          userId: ada.user.id,
          purpose: "step_up",
          response,
        }),
      );
    }
    expect(await hasPasskeys(t.database.db, (await createVerifiedUser(t.database)).user.id)).toBe(false);
  });
});

describe("relying party from PUBLIC_URL", () => {
  it("uses PUBLIC_URL's host as RP id and its origin only", async () => {
    const app = await createTestApp({ PUBLIC_URL: "https://bank.example/app", RATE_LIMIT_SCALE: "100" });
    try {
      const ada = await createVerifiedUser(app.database);
      const post = (url: string, payload?: unknown) =>
        app.app.inject({
          method: "POST",
          url,
          headers: { cookie: ada.cookie },
          ...(payload ? { payload: payload as Json } : {}),
        });
      const options = (await post("/api/auth/passkeys/registration-options")).json();
      expect(options.rp).toMatchObject({ id: "bank.example", name: "Pillar" });
      const local = new SoftwareAuthenticator();
      const refused = await post("/api/auth/passkeys", {
        name: "x",
        response: local.register(options).response,
      });
      expect(refused.statusCode).toBe(400);
      const bank = new SoftwareAuthenticator({ origin: "https://bank.example" });
      const again = (await post("/api/auth/passkeys/registration-options")).json();
      const ok = await post("/api/auth/passkeys", { name: "x", response: bank.register(again).response });
      expect(ok.statusCode, ok.body).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("refuses passkey ceremonies in production without PUBLIC_URL, with a clear message", async () => {
    const app = await createTestApp({
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(64),
      DATA_KEY: "a".repeat(64),
      COOKIE_SECURE: "0",
    });
    try {
      const res = await app.app.inject({ method: "POST", url: "/api/auth/passkey-login/options" });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        message: PASSKEY_MESSAGES.needsPublicUrl,
        passkeysUnavailable: true,
      });
    } finally {
      await app.close();
    }
  });
});

describe("rate limits", () => {
  it("limits passwordless attempts per IP with a 429 JSON answer", async () => {
    const app = await createTestApp({ RATE_LIMIT_SCALE: "1" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await app.app.inject({
          method: "POST",
          url: "/api/auth/passkey-login",
          payload: { challengeId: crypto.randomUUID(), response: {} },
          remoteAddress: "198.51.100.23",
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      await app.close();
    }
  });
});
