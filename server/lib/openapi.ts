import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { BRAND } from "@/contract/brand";
import type { Config } from "@/server/config";
import { sessionCookieName } from "@/server/lib/session";

/** GET /api/docs: described loosely, so serialising it never drops a field swagger writes. */
const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({}),
  paths: z.looseObject({}),
});

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** Documents /api/* only (health, metrics, files and the SPA are not the API); admin routes are tagged and flagged. */
function transform(input: TransformInput) {
  const { schema, url: raw } = jsonSchemaTransform(input);
  // A prefixed plugin's "/" route answers with and without the slash; document it once, without.
  const url = raw.replace(/(.)\/$/, "$1");
  if (!url.startsWith("/api/")) return { schema: { ...schema, hide: true }, url };
  if (!url.startsWith("/api/admin/")) return { schema, url };
  return {
    schema: { ...schema, tags: ["admin"], "x-admin": true, security: [{ sessionCookie: [] }] },
    url,
  };
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
      },
      tags: [{ name: "admin", description: "Back office: admins only (401 signed out, 403 otherwise)" }],
    },
    transform,
  });
  app.get("/api/docs", { schema: { hide: true, response: { 200: openApiDocument } } }, async () =>
    app.swagger(),
  );
}
