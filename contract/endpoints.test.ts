import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type EndpointReason, isStaffAccess, reasonsOf, splitEndpointKey } from "@/contract/endpoint";
import { ENDPOINTS, ENDPOINTS_BY_AREA } from "@/contract/endpoints";
import { AREA_PURPOSE, generatedFiles } from "@/scripts/contract-generate";

const words = (text: string) => text.replace(/\s+/g, " ").trim();

describe("the endpoint contracts", () => {
  it("match what is generated from them: the role table, docs/endpoints.md, the area map (npm run contract:generate)", () => {
    for (const [file, text] of Object.entries(generatedFiles())) {
      expect(words(readFileSync(file, "utf8")), `${file}: run npm run contract:generate`).toBe(words(text));
    }
  });

  it("come from areas the area map describes", () => {
    for (const area of Object.keys(ENDPOINTS_BY_AREA)) expect(AREA_PURPOSE, area).toHaveProperty(area);
  });

  it("put every staff endpoint under /api/admin and no other there", () => {
    for (const [key, endpoint] of Object.entries(ENDPOINTS)) {
      const [, path] = splitEndpointKey(key);
      expect(path.startsWith("/api/admin/"), key).toBe(isStaffAccess(endpoint.access));
    }
  });

  it("name every path parameter in the params schema, and no other", () => {
    for (const [key, endpoint] of Object.entries(ENDPOINTS)) {
      const [, path] = splitEndpointKey(key);
      const named = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
      const shape = (endpoint as { params?: { shape?: Record<string, unknown> } }).params?.shape ?? {};
      expect(Object.keys(shape).sort(), key).toEqual(named);
    }
  });

  it("take a body only on a method that carries one", () => {
    for (const [key, endpoint] of Object.entries(ENDPOINTS)) {
      const [method] = splitEndpointKey(key);
      if ("body" in endpoint) expect(["POST", "PUT", "PATCH"], key).toContain(method);
    }
  });
});

describe("an endpoint's reasons", () => {
  it("are the same as a type (the web's exhaustive switches) and at run time (the abuse suite's check)", () => {
    const key = "POST /api/admin/approvals/:id/approve";
    // Every key of EndpointReason<…> and no other, or this does not compile.
    const typed: Record<EndpointReason<(typeof ENDPOINTS)[typeof key]>, true> = {
      approval_decided: true,
      self_approval: true,
      role_required: true,
      stale_approval: true,
      wallet_limit_exceeded: true,
      admin_second_factor_required: true,
      step_up_required: true,
      service_unavailable: true,
    };
    // The run-time set also carries the bare codes (upper case), which are not reasons.
    const atRunTime = [...reasonsOf(ENDPOINTS[key])].filter((reason) => reason === reason.toLowerCase());
    expect(atRunTime.sort()).toEqual(Object.keys(typed).sort());
  });
});
