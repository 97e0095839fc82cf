import { isSignedInPath } from "@/web/lib/signed-in-routes";

/*
 * Where a signed-out visitor was going, carried through /auth as `?next=` and followed after sign-in.
 * Only our own signed-in pages qualify (the router's own table, web/lib/signed-in-routes.ts), so the
 * parameter can never send anyone to another site (`//evil.com`, `/\evil.com`, `https://evil.com`) or
 * trigger an action (`/api/logout`).
 */

/** The fallback when `next` is present but not one of our signed-in pages. */
export const DEFAULT_SIGNED_IN_PATH = "/dashboard";

/** The sign-in page that returns to `path` (pathname plus search) afterwards. */
export function signInPathFor(path: string): string {
  return `/auth?next=${encodeURIComponent(path)}`;
}

/**
 * A same-origin signed-in path from an untrusted `next` value, or the dashboard. Resolved by the URL parser
 * against our own origin (which is what the browser would do), so tabs, backslashes and encodings that
 * browsers normalise cannot smuggle another host past a prefix check.
 */
export function safeReturnPath(raw: string, origin: string): string {
  // Only a plain absolute path: no scheme, no "//" or "/\" authority, no control characters or spaces.
  if (!/^\/(?![/\\])[^\s\\]*$/.test(raw) || /\p{Cc}/u.test(raw)) return DEFAULT_SIGNED_IN_PATH;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return DEFAULT_SIGNED_IN_PATH;
  }
  if (url.origin !== origin || !isSignedInPath(url.pathname)) return DEFAULT_SIGNED_IN_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where sign-in leads: `/` as the spec says, or the page the visitor was sent away from. */
export function afterSignInPath(location: Pick<Location, "search" | "origin"> = window.location): string {
  const next = new URLSearchParams(location.search).get("next");
  return next === null ? "/" : safeReturnPath(next, location.origin);
}
