// No zod here: the web's entry chunk imports this.

/** Source files (relative to web/) of the pages whose code starts downloading before the router has run. */
export const FIRST_PAGE_SOURCES = {
  dashboard: "features/accounts/dashboard-page.tsx",
  landing: "features/marketing/landing-page.tsx",
} as const;

export type FirstPage = keyof typeof FIRST_PAGE_SOURCES;

/**
 * What /dashboard reads as it mounts. The server answers them inside the HTML of a signed-in first load
 * (server/lib/spa.ts); the web takes those answers instead of asking (web/lib/api.ts startEarlyGets).
 */
export const DASHBOARD_FIRST_READS = [
  "/api/auth/user",
  "/api/dashboard-content",
  "/api/account/summary",
  "/api/kyc/status",
  "/api/transactions/recent",
  "/api/chat/unread",
  // The balance card's savings line (decision 068).
  "/api/savings",
] as const;

/** The id of the `<script type="application/json">` element that carries those answers. */
export const FIRST_READS_ELEMENT_ID = "first-reads";

/**
 * On that element: the customer's latest notice number, read before the answers. The tab's event stream
 * starts from it (`/api/events?from=`), so what changed after the reads is replayed and nothing is asked twice.
 */
export const EVENTS_FROM_ATTRIBUTE = "data-events-from";

/** Set on `#root` when the server drew the page inside it from those answers, so the web hydrates it. */
export const SERVER_RENDERED_ATTRIBUTE = "data-server-rendered";

/** One embedded answer: the body of a 200 and its ETag, if it had one. */
export interface FirstRead {
  body: unknown;
  etag?: string;
}

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

/**
 * What the web's server render (web/app/server-render.tsx) takes: the page's path, the answers embedded beside
 * it, and the request's Cookie header (choices remembered on the device, web/lib/device-cookies.ts).
 */
export interface FirstPageRenderInput {
  path: string;
  answers: Record<string, FirstRead>;
  cookies: string;
  /** Aborts the render: the server gives up on the markup and the browser draws the page itself. */
  signal?: AbortSignal;
}

/** Draws the app's markup for a first load; rejects when the signal aborts or any part fails to render. */
export type RenderFirstPage = (input: FirstPageRenderInput) => Promise<string>;

/**
 * The module the server loads by path at run time (dist/web-render/server-render.js, or the source through
 * Vite): the one thing server and web agree on about it, since neither imports the other (decision 022).
 */
export interface FirstPageRendererModule {
  renderFirstPage: RenderFirstPage;
}
