import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "@/server/config";
import type { Database } from "@/server/db/client";
import { healthRoutes } from "@/server/features/health/routes";
import { registerErrorHandler } from "@/server/lib/error-handler";
import { registerSecurity } from "@/server/lib/security";
import { registerSpa } from "@/server/lib/spa";

export interface AppDeps {
  config: Config;
  database: Database;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions["logger"];
  /** Directory of the built SPA; defaults to dist/web. */
  webDir?: string;
}

const DEFAULT_WEB_DIR = path.resolve(fileURLToPath(new URL("../dist/web", import.meta.url)));
const ONE_MEBIBYTE = 1024 * 1024;

/** Plugins in a fixed order: config and database → security → error handling → feature routes → SPA. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? { level: deps.config.logLevel },
    bodyLimit: ONE_MEBIBYTE,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: deps.config.isProduction,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("deps", deps);

  await registerSecurity(app, { secureCookies: deps.config.cookieSecure });
  await app.register(cookie, { secret: deps.config.sessionSecret });
  await app.register(rateLimit, { global: false });
  registerErrorHandler(app);

  await app.register(healthRoutes);

  await registerSpa(app, options.webDir ?? DEFAULT_WEB_DIR);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
