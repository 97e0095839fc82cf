import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { BRAND } from "@/contract/brand";
import { errorBody } from "@/contract/errors";
import type { Config } from "@/server/config";
import { ERROR_STATUS } from "@/server/lib/errors";
import { ROUTE_ERRORS, type RouteAccess } from "@/server/lib/route-errors";
import { sessionCookieName } from "@/server/lib/session";

/** GET /api/docs: described loosely, so serialising it never drops a field swagger writes. */
const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({}),
  paths: z.looseObject({}),
});

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: "Invalid request: body, query or path does not match the contract (VALIDATION, BAD_REQUEST)",
  401: "Not signed in, or the session ended (UNAUTHORIZED)",
  403: "Refused: staff role or second factor missing, account frozen, or a cross-site mutation (FORBIDDEN)",
  404: "Not found, or not the caller's (NOT_FOUND)",
  409: "Conflicts with the current state (CONFLICT)",
  410: "No longer valid (GONE)",
  413: "Body too large (PAYLOAD_TOO_LARGE)",
  415: "Unsupported content type: send JSON (UNSUPPORTED_MEDIA_TYPE)",
  422: "Refused by a business rule; the flags say which (UNPROCESSABLE)",
  429: "Too many requests; try again later (RATE_LIMITED)",
};

const ERROR_BODY_REF = { $ref: "#/components/schemas/ErrorBody" };

/**
 * The 4xx a route can answer: 400 when it takes a body, query or path parameters; 401 unless public; 403 for
 * staff routes and cross-site mutations; 413/415 for a JSON body; 429 for a per-IP limit; plus its service's
 * own codes from ROUTE_ERRORS.
 */
export function errorStatusesFor(key: string, route: TransformInput["route"], url: string): number[] {
  const method = key.split(" ")[0]!;
  const [access, ...codes] = ROUTE_ERRORS[key] ?? [url.startsWith("/api/admin/") ? "admin" : "public"];
  const schema = route.schema ?? {};
  const statuses = new Set<number>(codes.map((code) => ERROR_STATUS[code]));
  if (schema.body || schema.querystring || schema.params) statuses.add(400);
  if ((access as RouteAccess) !== "public") statuses.add(401);
  if (access === "admin" || MUTATING.has(method)) statuses.add(403);
  if (schema.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** Documents /api/* only (health, metrics, files and the SPA are not the API); admin routes are tagged and flagged. */
function transform(input: TransformInput) {
  const { schema, url: raw } = jsonSchemaTransform(input);
  // A prefixed plugin's "/" route answers with and without the slash; document it once, without.
  const url = raw.replace(/(.)\/$/, "$1");
  if (!url.startsWith("/api/")) return { schema: { ...schema, hide: true }, url };
  const method = [input.route.method].flat()[0]!;
  const errors = Object.fromEntries(
    errorStatusesFor(`${method} ${url}`, input.route, url).map((status) => [
      String(status),
      {
        description: ERROR_DESCRIPTIONS[status],
        content: { "application/json": { schema: ERROR_BODY_REF } },
      },
    ]),
  );
  const documented = { ...schema, response: { ...(schema.response as object), ...errors } };
  if (!url.startsWith("/api/admin/")) return { schema: documented, url };
  return {
    schema: { ...documented, tags: ["admin"], "x-admin": true, security: [{ sessionCookie: [] }] },
    url,
  };
}

/** The error body as a JSON Schema component every error response points at. */
function errorBodyComponent() {
  const { $schema: _, ...schema } = z.toJSONSchema(errorBody, { io: "output" });
  // zod's JSON Schema type is wider than swagger's OpenAPI one; the object itself is plain JSON Schema.
  return schema as { type: "object" };
}

/**
 * OpenAPI 3.1 document of the API at GET /api/docs, generated from the contract's zod schemas the
 * routes validate with. Register before the routes: swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: `${BRAND.name} API`, version: "1.0.0" },
      components: {
        securitySchemes: {
          sessionCookie: { type: "apiKey", in: "cookie", name: sessionCookieName(config) },
        },
        schemas: { ErrorBody: errorBodyComponent() },
      },
      tags: [{ name: "admin", description: "Back office: admins only (401 signed out, 403 otherwise)" }],
    },
    transform,
  });
  let customerPart: ReturnType<typeof app.swagger> | undefined;
  // The back office's routes and bodies are for staff: everyone else reads the customer API only.
  app.get("/api/docs", { schema: { hide: true, response: { 200: openApiDocument } } }, async (request) => {
    if (request.user?.isAdmin) return app.swagger();
    customerPart ??= withoutAdminRoutes(app.swagger());
    return customerPart;
  });
}

/** The document with every /api/admin path and the admin tag left out. */
function withoutAdminRoutes<T extends { paths?: object; tags?: { name: string }[] }>(document: T): T {
  return {
    ...document,
    paths: Object.fromEntries(
      Object.entries(document.paths ?? {}).filter(([path]) => !path.startsWith("/api/admin/")),
    ),
    tags: (document.tags ?? []).filter((tag) => tag.name !== "admin"),
  };
}
