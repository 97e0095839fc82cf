import { describe, expect, it } from "vitest";
import { afterSignInPath, safeReturnPath, signInPathFor } from "@/web/lib/return-path";
import { hasSignedInHint } from "@/web/lib/signed-in-hint";
import { compileRoute, isSignedInPath, SIGNED_IN_ROUTES } from "@/web/lib/signed-in-routes";

const ORIGIN = "https://pillar.example";
/** What /auth?next=… yields after the browser's own decoding, as afterSignInPath sees it. */
const afterSignIn = (search: string) => afterSignInPath({ search, origin: ORIGIN });

describe("return path after sign-in", () => {
  it("returns to the signed-in page the visitor was sent away from, query included", () => {
    expect(afterSignIn(`?next=${encodeURIComponent("/send-money")}`)).toBe("/send-money");
    expect(afterSignIn(`?next=${encodeURIComponent("/dashboard-edit/abc-123?x=1")}`)).toBe(
      "/dashboard-edit/abc-123?x=1",
    );
    expect(afterSignIn(signInPathFor("/analytics").slice("/auth".length))).toBe("/analytics");
  });

  it("keeps the spec's / when there is no next", () => {
    expect(afterSignIn("")).toBe("/");
    expect(afterSignIn("?signedOut=1")).toBe("/");
  });

  it.each([
    "//evil.com",
    "//evil.com/dashboard",
    "/\\evil.com",
    "/\\/evil.com",
    "\\\\evil.com",
    "https://evil.com",
    "https://evil.com/dashboard",
    "http:/evil.com",
    "javascript:alert(1)",
    "/\t/evil.com",
    "/\n/evil.com",
    " //evil.com",
    "%2F%2Fevil.com",
    "/%2F/evil.com",
    "/%5Cevil.com",
    "/api/logout",
    "/objects/someone-else.png",
    "/dashboard/../api/logout",
    "/unknown",
    "",
    "dashboard",
  ])("falls back to the dashboard for %j", (next) => {
    expect(safeReturnPath(next, ORIGIN)).toBe("/dashboard");
    expect(afterSignIn(`?next=${encodeURIComponent(next)}`)).toBe("/dashboard");
  });

  it("falls back for double-encoded and raw-encoded attacks in the query string", () => {
    expect(afterSignIn("?next=%252F%252Fevil.com")).toBe("/dashboard");
    expect(afterSignIn("?next=%2F%2Fevil.com")).toBe("/dashboard");
    expect(afterSignIn("?next=%2F%5Cevil.com")).toBe("/dashboard");
    expect(afterSignIn("?next=https%3A%2F%2Fevil.com")).toBe("/dashboard");
    expect(afterSignIn("?next=%2F%09%2Fevil.com")).toBe("/dashboard");
  });

  it("knows the signed-in pages and nothing else", () => {
    for (const path of ["/dashboard", "/settings", "/admin", "/send-money", "/pay", "/analytics", "/contact"])
      expect(isSignedInPath(path)).toBe(true);
    expect(isSignedInPath("/apply-checking")).toBe(true);
    expect(isSignedInPath("/dashboard-edit/u1")).toBe(true);
    for (const path of ["/", "/auth", "/about", "/privacy", "/nope", "/dashboard-edit/", "/api/logout"])
      expect(isSignedInPath(path)).toBe(false);
  });

  it("returns to every page of the route table, e-mail links included", () => {
    for (const route of SIGNED_IN_ROUTES) {
      const path = route.replace(/\/\*\?$/, "").replace(/:[a-zA-Z]\w*/g, "abc-123");
      expect(afterSignIn(`?next=${encodeURIComponent(path)}`)).toBe(path);
    }
    for (const path of ["/schedules", "/notifications", "/statements", "/add-money", "/transfers/t-1?x=1"])
      expect(afterSignIn(`?next=${encodeURIComponent(path)}`)).toBe(path);
    expect(afterSignIn(`?next=${encodeURIComponent("/admin/compliance/cases/c-1")}`)).toBe(
      "/admin/compliance/cases/c-1",
    );
    expect(afterSignIn(`?next=${encodeURIComponent("/transfers/a/b")}`)).toBe("/dashboard");
    expect(afterSignIn(`?next=${encodeURIComponent("/transfers/")}`)).toBe("/dashboard");
  });

  it("compiles route patterns as wouter reads them, and refuses what it cannot read", () => {
    const receipt = compileRoute("/transfers/:id");
    expect(receipt.exec("/transfers/t-1")?.groups).toEqual({ id: "t-1" });
    expect(receipt.test("/Transfers/t-1/")).toBe(true);
    expect(receipt.test("/transfers")).toBe(false);
    const compliance = compileRoute("/admin/compliance/*?");
    expect(compliance.test("/admin/compliance")).toBe(true);
    expect(compliance.test("/admin/compliance/cases/c-1")).toBe(true);
    expect(compliance.test("/admin/compliances")).toBe(false);
    expect(() => compileRoute("/a/(x)")).toThrow(/Unsupported route segment/);
  });
});

describe("signed-in hint", () => {
  it("is read from the cookie string by exact name", () => {
    expect(hasSignedInHint("a=1; pillar_signed_in=1")).toBe(true);
    expect(hasSignedInHint("pillar_signed_in=1")).toBe(true);
    expect(hasSignedInHint("")).toBe(false);
    expect(hasSignedInHint("not_pillar_signed_in=1; x=pillar_signed_in=1")).toBe(false);
  });
});
