// No zod here: the web's entry chunk imports this, and every signed-out page pays for what it pulls in.

/**
 * A readable "signed in" hint the server sets beside the HttpOnly session cookie and clears on logout. It
 * carries no secret: the web only probes /api/auth/user when it is present, so signed-out visitors make no
 * request that answers 401.
 */
export const SIGNED_IN_HINT_COOKIE = "pillar_signed_in";
/** Where logout lands: the sign-in page says "You're signed out". */
export const SIGNED_OUT_PATH = "/auth?signedOut=1";
