import { eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { expect } from "vitest";
import type { App } from "@/server/app";
import type { Database } from "@/server/db/client";
import { totpFactors } from "@/server/db/schema";

/** The code an authenticator app would show now (or `steps` periods away), computed from the shown key. */
export function totpCode(secret: string, steps = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/**
 * A code the server will accept again: each 30-second step is accepted once, so a test that needs several
 * codes within one step forgets the last used step behind the app's back.
 */
export async function freshTotpCode(database: Database, userId: string, secret: string): Promise<string> {
  await database.db.update(totpFactors).set({ lastUsedStep: null }).where(eq(totpFactors.userId, userId));
  return totpCode(secret);
}

export const postJson = (app: App, url: string, cookie: string | undefined, payload?: object) =>
  app.inject({
    method: "POST",
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });

/** Turns on the authenticator for a signed-in user over HTTP; returns the key and the ten recovery codes. */
export async function enrolTotp(
  app: App,
  cookie: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrol = await postJson(app, "/api/auth/totp/enroll", cookie);
  expect(enrol.statusCode, enrol.body).toBe(200);
  const { secret } = enrol.json() as { secret: string };
  const confirm = await postJson(app, "/api/auth/totp/confirm", cookie, { code: totpCode(secret) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { secret, recoveryCodes: confirm.json().recoveryCodes };
}

/** Marks the session stepped-up with a fresh TOTP code. */
export async function stepUpWithTotp(
  app: App,
  database: Database,
  user: { id: string; cookie: string; secret: string },
) {
  const res = await postJson(app, "/api/auth/step-up", user.cookie, {
    secondFactor: { method: "totp", code: await freshTotpCode(database, user.id, user.secret) },
  });
  expect(res.statusCode, res.body).toBe(200);
}
