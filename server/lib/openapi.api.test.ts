import { beforeAll, describe, expect, it } from "vitest";
import { setUpTestApp } from "@/tests/support/test-app";

interface Operation {
  tags?: string[];
  "x-admin"?: boolean;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<
    string,
    { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }
  >;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
}

/** "METHOD /path" for every route the app serves, read from Fastify's route tree (HEAD twins left out). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split("\n")) {
    const match = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack[depth] = match[2]!;
    const path = stack.slice(0, depth + 1).join("");
    for (const method of match[3]?.split(", ") ?? []) if (method !== "HEAD") routes.push(`${method} ${path}`);
  }
  return routes;
}

/** Fastify's `/users/:id` as OpenAPI's `/users/{id}`; a trailing slash is the same route. */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}").replace(/(.)\/$/, "$1");

let doc: OpenApiDocument;
let apiRoutes: string[];
const t = setUpTestApp();
beforeAll(async () => {
  await t.app.ready();
  apiRoutes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
    (r) => r.split(" ")[1]!.startsWith("/api/") && r !== "GET /api/docs",
  );
  const res = await t.app.inject({ method: "GET", url: "/api/docs" });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

describe("GET /api/docs", () => {
  it("is an OpenAPI 3 document", () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toEqual({ title: "Pillar API", version: expect.any(String) });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
  });

  it("lists every registered /api route with its method", () => {
    expect(apiRoutes.length).toBeGreaterThan(40);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const missing = apiRoutes.filter((r) => {
      const [method, path] = r.split(" ");
      return !documented.includes(`${method} ${toOpenApiPath(path!)}`);
    });
    expect(missing).toEqual([]);
  });

  it("leaves out what is not the API: health, metrics, the dev mailbox, the docs themselves", () => {
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/api\//);
    expect(doc.paths["/api/docs"]).toBeUndefined();
  });

  it("marks every admin route with the admin tag, x-admin and the session cookie", () => {
    expect(doc.components.securitySchemes.sessionCookie).toEqual({
      type: "apiKey",
      in: "cookie",
      name: "sid",
    });
    const adminOps = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/admin/"))
      .flatMap(([, ops]) => Object.values(ops));
    expect(adminOps.length).toBeGreaterThan(15);
    for (const op of adminOps) {
      expect(op.tags).toContain("admin");
      expect(op["x-admin"]).toBe(true);
      expect(op.security).toEqual([{ sessionCookie: [] }]);
    }
    expect(doc.paths["/api/auth/login"]!.post!["x-admin"]).toBeUndefined();
    expect(doc.paths["/api/auth/login"]!.post!.tags).toBeUndefined();
  });

  it("carries the contract's schemas for bodies and responses", () => {
    const register = doc.paths["/api/auth/register"]!.post!;
    expect(Object.keys(register.requestBody!.content["application/json"]!.schema.properties!)).toEqual(
      expect.arrayContaining(["email", "password", "pillarTag"]),
    );
    const login = doc.paths["/api/auth/login"]!.post!;
    expect(login.responses["200"]!.content!["application/json"]!.schema.properties).toHaveProperty("user");
    const transfer = doc.paths["/api/transfer/request"]!.post!;
    expect(transfer.requestBody!.content["application/json"]!.schema.properties).toHaveProperty("amount");
  });
});
