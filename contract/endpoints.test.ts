import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isStaffAccess, splitEndpointKey } from "@/contract/endpoint";
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
