import { describe, expect, it } from "vitest";
import { apiResponseHeaders, securityHeaders } from "@/server/lib/security";

const names = (headers: [string, string][]) => headers.map(([name]) => name.toLowerCase()).sort();
const byName = (headers: [string, string][]) =>
  new Map(headers.map(([name, value]) => [name.toLowerCase(), value]));

describe("securityHeaders", () => {
  it("computes helmet's whole header set once, with the app's CSP", () => {
    const headers = byName(securityHeaders(false));
    expect(headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(headers.get("content-security-policy")).toContain("object-src 'none'");
    expect(headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(headers.has("strict-transport-security")).toBe(false);
    expect(headers.has("cross-origin-embedder-policy")).toBe(false);
  });

  it("adds HSTS and upgrade-insecure-requests behind HTTPS (secure cookies)", () => {
    const headers = byName(securityHeaders(true));
    expect(headers.get("strict-transport-security")).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    expect(names(securityHeaders(true))).toEqual(
      [...names(securityHeaders(false)), "strict-transport-security"].sort(),
    );
  });
});

describe("apiResponseHeaders", () => {
  it("lets nothing load, frame or sniff an API answer, with HSTS behind HTTPS as for pages", () => {
    const headers = byName(apiResponseHeaders(securityHeaders(false)));
    expect(headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(headers.has("strict-transport-security")).toBe(false);
    const secure = byName(apiResponseHeaders(securityHeaders(true)));
    const pageHsts = byName(securityHeaders(true));
    expect(secure.get("strict-transport-security")).toBe(pageHsts.get("strict-transport-security"));
  });
});
