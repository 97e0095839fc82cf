import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_REASONS } from "@/contract/error-reasons";
import { ERROR_CODES, errorBody } from "@/contract/errors";
import { ROUTE_ERRORS } from "@/server/lib/route-errors";
import { CATALOGUE, expectedStatus } from "@/tests/abuse/catalogue";
import { ROLES } from "@/tests/abuse/world";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser } from "@/tests/support/users";

interface Operation {
  tags?: string[];
  "x-admin"?: boolean;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<
    string,
    {
      description?: string;
      content?: Record<string, { schema: { properties?: Record<string, unknown>; $ref?: string } }>;
    }
  >;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
    schemas: Record<string, { properties: Record<string, { enum?: string[] }>; required: string[] }>;
  };
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
const docsAs = async (cookie?: string): Promise<OpenApiDocument> => {
  const res = await t.app.inject({ method: "GET", url: "/api/docs", headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(200);
  return res.json();
};
beforeAll(async () => {
  await t.app.ready();
  apiRoutes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
    (r) => r.split(" ")[1]!.startsWith("/api/") && r !== "GET /api/docs",
  );
  // The whole document is for signed-in staff; the tests below read it as staff.
  doc = await docsAs((await createAdminUser(t.database)).cookie);
});

describe("GET /api/docs for whom", () => {
  it("answers signed-out callers and customers with the customer routes only, no back office", async () => {
    const customer = await createVerifiedUser(t.database);
    for (const cookie of [undefined, customer.cookie]) {
      const open = await docsAs(cookie);
      const paths = Object.keys(open.paths);
      expect(paths).toContain("/api/auth/login");
      expect(paths).toContain("/api/transfer/request");
      expect(paths.filter((p) => p.startsWith("/api/admin"))).toEqual([]);
      expect(JSON.stringify(open)).not.toContain("x-admin");
      expect((open as unknown as { tags: { name: string }[] }).tags).toEqual([]);
    }
  });

  it("gives signed-in staff the back office too", () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/admin/")).length).toBeGreaterThan(15);
  });
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

/** The statuses (as numbers) the document lists for `METHOD /path`, or undefined when the operation is missing. */
function documentedStatuses(key: string): number[] | undefined {
  const [method, path] = key.split(" ");
  const op = doc.paths[toOpenApiPath(path!)]?.[method!.toLowerCase()];
  return op && Object.keys(op.responses).map(Number);
}

describe("GET /api/docs error responses", () => {
  it("has a row in ROUTE_ERRORS for every /api route and none for a route that is gone", () => {
    // A prefixed "/" route is registered with and without the slash: one row covers both.
    const routes = apiRoutes.map((r) => r.replace(/(.)\/$/, "$1"));
    expect(routes.filter((r) => !ROUTE_ERRORS[r])).toEqual([]);
    expect(Object.keys(ROUTE_ERRORS).filter((r) => !routes.includes(r))).toEqual([]);
    for (const [key, [access]] of Object.entries(ROUTE_ERRORS)) {
      expect(access === "admin", key).toBe(key.split(" ")[1]!.startsWith("/api/admin/"));
    }
  });

  it("describes the error body once, from the contract: message, code, request id and the flags", () => {
    const body = doc.components.schemas.ErrorBody!;
    expect(body.required).toEqual(expect.arrayContaining(["message", "code", "requestId"]));
    expect(body.properties.code!.enum).toEqual([...ERROR_CODES]);
    // The domain reason (decision 023): an enum of the one table, optional (a bare code has none).
    expect(body.properties.reason!.enum).toEqual(Object.keys(ERROR_REASONS));
    expect(body.required).not.toContain("reason");
    for (const flag of ["insufficientFunds", "withdrawalLimitExceeded", "lookalikeAddress", "roleRequired"]) {
      expect(body.properties).toHaveProperty(flag);
    }
  });

  it("matches what the error handler really sends, flags included", async () => {
    const refusals = [
      { method: "GET", url: "/api/auth/user" },
      { method: "POST", url: "/api/auth/register", payload: {} },
      {
        method: "POST",
        url: "/api/auth/login",
        payload: { email: "nobody@example.com", password: "wrong-password" },
      },
      {
        method: "PUT",
        url: "/api/user/phone",
        payload: "{",
        headers: { "content-type": "application/json" },
      },
      // A refusal with a reason: 400 invalid_code, invalidCode: true.
      {
        method: "POST",
        url: "/api/auth/verify-email",
        payload: { email: "nobody@example.com", otp: "123456" },
      },
    ] as const;
    for (const request of refusals) {
      const res = await t.app.inject(request);
      expect(res.statusCode, request.url).toBeGreaterThanOrEqual(400);
      // Strict: a flag the contract does not name would fail here.
      expect(errorBody.strict().safeParse(res.json()).error, res.body).toBeUndefined();
    }
    const refused = await t.app.inject(refusals.at(-1)!);
    expect(refused.json()).toMatchObject({ code: "BAD_REQUEST", reason: "invalid_code", invalidCode: true });
  });

  it("points every 4xx response at the error body", () => {
    let errors = 0;
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          errors++;
          expect(response.description).toMatch(/\([A-Z_, ]+\)$/);
          expect(response.content!["application/json"]!.schema.$ref).toBe("#/components/schemas/ErrorBody");
        }
      }
    }
    expect(errors).toBeGreaterThan(300);
  });

  it("lists every refusal the authorization matrix gets from a route", () => {
    const missing: string[] = [];
    for (const [key, route] of Object.entries(CATALOGUE)) {
      if (!key.split(" ")[1]!.startsWith("/api/") || key === "GET /api/docs") continue;
      const documented = documentedStatuses(key);
      for (const role of ROLES) {
        const status = expectedStatus(key, route, role);
        if (status >= 400 && !documented?.includes(status)) missing.push(`${key} ${status} (${role})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("derives the usual answers from the route: input 400, signed out 401, staff and cross-site 403, JSON body 413/415, per-IP limit 429", () => {
    // Signed in, no input, no mutation: only 401.
    expect(documentedStatuses("GET /api/auth/user")).toEqual([200, 401]);
    // Public, JSON body, per-IP limit; a taken e-mail or tag is 409.
    expect(documentedStatuses("POST /api/auth/register")).toEqual([200, 400, 403, 409, 413, 415, 429]);
    // Staff only: 401 and 403 by role, 404 for an unknown id, 409 for a terminal transfer, 202 when a
    // flagged transfer waits for a second staff member.
    expect(documentedStatuses("PUT /api/admin/transfer-requests/{id}")).toEqual([
      200, 202, 400, 401, 403, 404, 409, 413, 415,
    ]);
    // The transfer: refusals with flags (422), an Idempotency-Key reused with another body (409), limits (429).
    expect(documentedStatuses("POST /api/transfer/request")).toEqual([
      201, 400, 401, 403, 409, 413, 415, 422, 429,
    ]);
    // A streamed file still documents its refusals.
    expect(documentedStatuses("GET /api/statements/{month}.pdf")).toEqual([200, 400, 401, 404]);
  });
});
