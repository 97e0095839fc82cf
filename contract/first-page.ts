// No zod here: the web's entry chunk imports this.

/** Source files (relative to web/) of the pages whose code starts downloading before the router has run. */
export const FIRST_PAGE_SOURCES = {
  dashboard: "features/accounts/dashboard-page.tsx",
  landing: "features/marketing/landing-page.tsx",
} as const;

export type FirstPage = keyof typeof FIRST_PAGE_SOURCES;

/**
 * The page a first load will most likely render, from its path and the "signed in" hint alone: the dashboard
 * for a signed-in visitor on / or /dashboard, the landing page for anyone else on /. The web starts that
 * page's chunk and reads early; the server lists the chunk's files as modulepreload links in the HTML.
 */
export function firstPageFor(pathname: string, hasSignedInHint: boolean): FirstPage | null {
  if (hasSignedInHint && (pathname === "/" || pathname === "/dashboard")) return "dashboard";
  if (pathname === "/") return "landing";
  return null;
}
