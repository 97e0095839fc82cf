import { QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Router } from "wouter";
import { AppRouter } from "@/web/app/router";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { createQueryClient } from "@/web/lib/query-client";
import { signInPathFor } from "@/web/lib/return-path";
import { SIGNED_IN_ROUTES } from "@/web/lib/signed-in-routes";

/** Where the router sends a signed-out visitor who opens `path` (undefined: it draws a page there). */
function signedOutRedirect(path: string): string | undefined {
  const client = createQueryClient();
  client.setQueryData(CURRENT_USER_KEY, null);
  const [pathname, search] = path.split("?");
  const ssrContext: { redirectTo?: string } = {};
  renderToString(
    <Router ssrPath={pathname} ssrSearch={search} ssrContext={ssrContext}>
      <QueryClientProvider client={client}>
        <AppRouter />
      </QueryClientProvider>
    </Router>,
  );
  client.clear();
  return ssrContext.redirectTo;
}

/** A concrete path for a route pattern: its parameters filled in, a trailing `*?` left empty. */
const examplePath = (route: string) => route.replace(/\/\*\?$/, "").replace(/:[a-zA-Z]\w*/g, "abc-123");

describe("a signed-out visitor on a signed-in page", () => {
  it.each(SIGNED_IN_ROUTES.map((route) => [route, examplePath(route)]))(
    "%s: %s asks to sign in and comes back to it",
    (_route, path) => {
      expect(signedOutRedirect(path)).toBe(signInPathFor(path));
    },
  );

  it.each([
    "/schedules",
    "/savings",
    "/notifications",
    "/statements",
    "/add-money",
    "/transfers/3f1c2a9e-0000-4000-8000-000000000001",
    "/admin/monitoring",
    "/admin/compliance/cases/c-1",
  ])("%s (a link from an e-mail or a bookmark) asks to sign in, not Page Not Found", (path) => {
    expect(signedOutRedirect(path)).toBe(signInPathFor(path));
  });

  it("keeps the query for after sign-in", () => {
    expect(signedOutRedirect("/transfers/abc?from=mail")).toBe(signInPathFor("/transfers/abc?from=mail"));
  });

  it.each(["/", "/auth", "/about", "/features", "/privacy", "/forgot-password", "/nope", "/transfers"])(
    "draws %s itself (a public page, or Page Not Found)",
    (path) => {
      expect(signedOutRedirect(path)).toBeUndefined();
    },
  );
});
