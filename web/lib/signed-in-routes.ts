/**
 * The pages only a signed-in visitor sees, as route patterns: `/literal`, `/:param` (one segment) and a
 * trailing `/*?` (anything below, or nothing). The router draws its signed-in pages from this list
 * (web/app/router.tsx, one page per pattern, checked by the compiler), and the same compiled patterns decide
 * whether a signed-out visitor is sent to sign in and whether sign-in may return to a `next` path. So a new
 * page cannot be reachable signed in yet "Page Not Found" signed out, as /schedules and /transfers/<id> were.
 * The pages both route sets draw (/, /auth, /this-wasnt-me, the trust pages) are not in it.
 */
export const SIGNED_IN_ROUTES = [
  "/dashboard",
  "/settings",
  "/admin",
  "/admin/compliance/*?",
  "/admin/monitoring",
  "/dashboard-edit/:userId",
  "/apply-checking",
  "/send-money",
  "/pay",
  "/transfers/:id",
  "/analytics",
  "/statements",
  "/recipients",
  "/schedules",
  "/savings",
  "/add-money",
  "/contact",
  "/notifications",
] as const;

export type SignedInRoute = (typeof SIGNED_IN_ROUTES)[number];

/**
 * A pattern as a RegExp with named groups, matched the way wouter matches its own string patterns (any case,
 * one optional trailing slash). The router is given these very RegExps, so what it draws and what this module
 * calls signed-in can never disagree.
 */
export function compileRoute(pattern: string): RegExp {
  const segments = pattern.split("/").slice(1);
  const source = segments
    .map((segment, i) => {
      if (segment === "*?" && i === segments.length - 1) return "(?:/(?<rest>.*))?";
      if (/^:[a-zA-Z]\w*$/.test(segment)) return `/(?<${segment.slice(1)}>[^/]+?)`;
      if (/^[a-z0-9-]+$/.test(segment)) return `/${segment}`;
      throw new Error(`Unsupported route segment "${segment}" in ${pattern}`);
    })
    .join("");
  return new RegExp(`^${source}/?$`, "i");
}

export const SIGNED_IN_ROUTE_PATTERNS: Readonly<Record<SignedInRoute, RegExp>> = Object.fromEntries(
  SIGNED_IN_ROUTES.map((route) => [route, compileRoute(route)]),
) as Record<SignedInRoute, RegExp>;

/** Whether a pathname (no query) is one of the signed-in pages. */
export function isSignedInPath(pathname: string): boolean {
  return SIGNED_IN_ROUTES.some((route) => SIGNED_IN_ROUTE_PATTERNS[route].test(pathname));
}
