import type { FastifyRequest } from "fastify";
import { BRAND } from "@/contract/brand";

/**
 * A sign-out reached from another site (a link or an image on someone else's page) is not the customer's own
 * click: our pages send Sec-Fetch-Site same-origin, the address bar and bookmarks none. A browser that sends no
 * header at all is treated as before.
 */
export function isForeignNavigation(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  return site === "cross-site" || site === "same-site";
}

/** Served instead of signing out: nothing inline but style, one form that posts back to us (CSRF-checked). */
export const LOGOUT_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function logoutConfirmPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out of ${BRAND.name}?</title>
<style>
  body { margin: 0; padding: 0 1rem; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f8fafc; color: #0f172a; }
  main { max-width: 26rem; margin: 12vh auto 0; padding: 2rem 1.5rem; background: #fff; border: 1px solid #e2e8f0; border-radius: 0.75rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  p { margin: 0 0 1.25rem; line-height: 1.5; color: #475569; }
  button { width: 100%; padding: 0.75rem 1rem; font: inherit; font-weight: 600; color: #fff; background: #15598f; border: 0; border-radius: 0.5rem; cursor: pointer; }
  button:focus-visible, a:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
  a { display: block; margin-top: 1rem; text-align: center; color: #15598f; }
</style>
</head>
<body>
<main>
<h1>Sign out of ${BRAND.name}?</h1>
<p>Another website sent you here, so you have not been signed out. If you want to sign out, press the button.</p>
<form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
<a href="/">Stay signed in and go to ${BRAND.name}</a>
</main>
</body>
</html>
`;
}
