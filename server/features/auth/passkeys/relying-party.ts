import { BRAND } from "@/contract/brand";
import { PASSKEY_MESSAGES } from "@/contract/passkeys";
import type { Config } from "@/server/config";
import { AppError } from "@/server/lib/errors";

/** Where passkeys are valid: the RP id the authenticator scopes them to, and the page origins allowed to use them. */
export interface RelyingParty {
  rpID: string;
  rpName: string;
  isAllowedOrigin(origin: string): boolean;
}

// Outside production without PUBLIC_URL (its default http://localhost:PORT): any port on localhost, so Vite's
// dev server works too (WebAuthn refuses IP addresses as RP ids).
const LOCALHOST_ORIGIN = /^https?:\/\/localhost(:\d{1,5})?$/;

/** From PUBLIC_URL; in production without it, passkeys are refused with a clear 403 rather than guessed from headers. */
export function relyingParty(
  config: Pick<Config, "publicUrl" | "publicUrlIsDefault" | "isProduction">,
): RelyingParty {
  if (config.publicUrl && !config.publicUrlIsDefault) {
    let url: URL;
    try {
      url = new URL(config.publicUrl);
    } catch {
      throw unavailable();
    }
    return { rpID: url.hostname, rpName: BRAND.name, isAllowedOrigin: (origin) => origin === url.origin };
  }
  if (config.isProduction) throw unavailable();
  return {
    rpID: "localhost",
    rpName: BRAND.name,
    isAllowedOrigin: (origin) => LOCALHOST_ORIGIN.test(origin),
  };
}

const unavailable = () => new AppError("passkeys_unavailable", PASSKEY_MESSAGES.needsPublicUrl);
