import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isStaffAccess, splitEndpointKey } from "@/contract/endpoint";
import { ENDPOINTS } from "@/contract/endpoints";
import { GENERATED_ROLES_FILE, generatedRolesSource } from "@/scripts/contract-generate";

const words = (text: string) => text.replace(/\s+/g, " ").trim();

describe("the endpoint contracts", () => {
  it("have a generated role table that matches them (npm run contract:generate)", () => {
    expect(words(readFileSync(GENERATED_ROLES_FILE, "utf8"))).toBe(words(generatedRolesSource()));
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
