import { SIGNED_IN_HINT_COOKIE } from "@/contract/session-hint";
import { hasCookie } from "@/web/lib/device-cookies";

/**
 * Whether the server said this browser signed in (its readable hint beside the HttpOnly session cookie).
 * Without it the session probe is skipped: a signed-out visitor then makes no request that answers 401.
 * A stale hint (the session ended or was revoked) is cleared by the server's 401 answer to the probe.
 */
export function hasSignedInHint(cookies: string = document.cookie): boolean {
  return hasCookie(cookies, SIGNED_IN_HINT_COOKIE);
}
