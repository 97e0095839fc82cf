import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FreezeReason } from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import type { Config } from "@/server/config";
import type { DbOrTx } from "@/server/db/client";
import { freezeLinks } from "@/server/db/schema";

export const FREEZE_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;
/** 32 random bytes in base64url: exactly 43 characters. */
export const FREEZE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashFreezeToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Links in mails point at PUBLIC_URL (outside production it defaults to http://localhost:PORT, see config),
 * or, in production without it, at the address this server listens on.
 */
export function publicBaseUrl(config: Pick<Config, "publicUrl" | "host" | "port">): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, "");
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

export interface NewFreezeLink {
  url: string;
  tokenHash: string;
}

/** A fresh link; the token rides in the fragment, so it never reaches server logs or a Referer header. */
export function newFreezeLink(config: Pick<Config, "publicUrl" | "host" | "port">): NewFreezeLink {
  const token = randomBytes(32).toString("base64url");
  return { url: `${publicBaseUrl(config)}/this-wasnt-me#token=${token}`, tokenHash: hashFreezeToken(token) };
}

/**
 * Stores a single-use "This wasn't me" link (only its SHA-256, 7 days) in the caller's transaction and
 * returns the full URL for the mail written in that same transaction.
 */
export async function issueFreezeLink(
  tx: DbOrTx,
  deps: Pick<AppDeps, "config">,
  { userId, reason }: { userId: string; reason: FreezeReason },
): Promise<string> {
  const link = newFreezeLink(deps.config);
  await tx.insert(freezeLinks).values({
    userId,
    tokenHash: link.tokenHash,
    reason,
    expiresAt: sql`now() + make_interval(secs => ${FREEZE_LINK_TTL_SECONDS})`,
  });
  return link.url;
}
