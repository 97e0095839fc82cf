import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AppDeps } from "@/server/app-deps";
import type { Config } from "@/server/config";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { issueFreezeLink } from "@/server/features/security/freeze-links";
import { describePlace } from "@/server/lib/describe-place";
import { newDeviceMail } from "@/server/lib/mail/security-templates";
import { notify } from "@/server/lib/notifications";
import type { UserRow } from "@/server/lib/session";
import { describeBrowser } from "@/server/lib/session-browser";

/** Browsers keep their device cookie for 400 days, the most Chrome allows. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
const DEVICE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function deviceCookieName(config: Pick<Config, "cookieSecure">): string {
  return config.cookieSecure ? "__Host-pillar_device" : "pillar_device";
}

export function deviceCookieOptions(config: Pick<Config, "cookieSecure">) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure: config.cookieSecure,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  };
}

/** Null for anything that is not one of our 256-bit values, so a junk cookie costs no query. */
export function hashDeviceToken(token: string | undefined | null): string | null {
  if (!token || !DEVICE_TOKEN_PATTERN.test(token)) return null;
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The hash of the browser's device cookie when that browser has signed in to the account with this e-mail
 * before, else null. Only the login limiter uses it, to pick a bucket; the answer never reaches the client.
 */
export async function findKnownDeviceHash(
  db: DbOrTx,
  email: string,
  deviceToken: string | undefined,
): Promise<string | null> {
  const hash = hashDeviceToken(deviceToken);
  if (!hash) return null;
  const found = await queryRows(
    db,
    sql`
      select 1 as one from known_devices d join users u on u.id = d.user_id
      where d.token_hash = ${hash} and lower(u.email) = lower(${email.trim()}) limit 1`,
    z.object({ one: z.number() }),
  );
  return found.length > 0 ? hash : null;
}

export interface SignInDevice {
  user: Pick<UserRow, "id" | "email" | "firstName" | "frozenAt">;
  /** The device cookie the browser came with, if any. */
  deviceToken?: string | null;
  userAgent?: string | null;
  ip?: string | null;
}

/**
 * Every successful sign-in calls this inside its session transaction. The browser gets a fresh device value
 * each time (set it as the cookie): rows that knew the old value follow it, so a value planted in a browser
 * or copied from one stops working at the owner's next sign-in. A (user, browser) pair not seen before
 * enqueues the new-device mail with a "This wasn't me" link, except for the account's very first browser
 * (nothing to compare with yet) unless the account is frozen. Call wakeMailWorker() after commit.
 */
export async function recordSignInDevice(
  deps: Pick<AppDeps, "config">,
  tx: DbOrTx,
  { user, deviceToken, userAgent, ip }: SignInDevice,
): Promise<{ isNew: boolean; deviceToken: string }> {
  const fresh = randomBytes(32).toString("base64url");
  const freshHash = createHash("sha256").update(fresh).digest("hex");
  const oldHash = hashDeviceToken(deviceToken);
  if (oldHash) {
    await tx.execute(sql`update known_devices set token_hash = ${freshHash} where token_hash = ${oldHash}`);
  }
  const agent = userAgent ? userAgent.slice(0, 512) : null;
  // The CTE's subquery sees the table as it was before this statement: whether the user had another browser (one
  // index probe, not a count of every browser they ever used).
  const [row] = await queryRows(
    tx,
    sql`
      with upsert as (
        insert into known_devices (user_id, token_hash, user_agent, ip)
        values (${user.id}, ${freshHash}, ${agent}, ${ip ?? null})
        on conflict (user_id, token_hash)
          do update set last_seen_at = now(), user_agent = excluded.user_agent, ip = excluded.ip
        returning (xmax = 0) as inserted
      )
      select inserted, exists (select 1 from known_devices where user_id = ${user.id}) as known_before
      from upsert`,
    z.object({ inserted: z.boolean(), known_before: z.boolean() }),
  );
  const isNew = row!.inserted;
  const isFirstBrowser = !row!.known_before && user.frozenAt === null;
  if (isNew && !isFirstBrowser) {
    const freezeUrl = await issueFreezeLink(tx, deps, { userId: user.id, reason: "new_device" });
    const browser = describeBrowser(agent);
    const place = describePlace(ip);
    await notify(
      tx,
      user.id,
      "security",
      {
        title: "New sign-in",
        body: `Your account was signed in to from ${browser} (${place}). If this wasn't you, use the link in the e-mail we sent.`,
        link: "/settings",
      },
      newDeviceMail(user.email, { firstName: user.firstName, when: new Date(), browser, place, freezeUrl }),
    );
  }
  return { isNew, deviceToken: fresh };
}
