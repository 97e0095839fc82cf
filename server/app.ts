import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "@/server/config";
import type { Database } from "@/server/db/client";
import { accountRoutes } from "@/server/features/accounts/routes";
import { adminRoutes } from "@/server/features/admin/routes";
import { authRoutes } from "@/server/features/auth/routes";
import { adminChatRoutes } from "@/server/features/chat/admin-routes";
import { chatRoutes } from "@/server/features/chat/routes";
import { devMailboxRoutes } from "@/server/features/dev-mailbox/routes";
import { healthRoutes } from "@/server/features/health/routes";
import { kycAdminRoutes } from "@/server/features/kyc/admin-routes";
import { kycRoutes } from "@/server/features/kyc/routes";
import { objectRoutes } from "@/server/features/objects/routes";
import { adminMoneyRoutes } from "@/server/features/payments/admin-routes";
import { securityRoutes } from "@/server/features/security/routes";
import { transferRoutes } from "@/server/features/transfers/routes";
import { registerErrorHandler } from "@/server/lib/error-handler";
import { registerMail } from "@/server/lib/mail/register-mail";
import { registerMetrics } from "@/server/lib/metrics";
import { registerOpenApi } from "@/server/lib/openapi";
import { registerRequestLog } from "@/server/lib/request-log";
import { registerSecurity } from "@/server/lib/security";
import { sessionPlugin } from "@/server/lib/session-plugin";
import { registerSpa } from "@/server/lib/spa";
import { createStorage } from "@/server/lib/storage/create-storage";
import type { ObjectStorage } from "@/server/lib/storage/storage";

export interface AppDeps {
  config: Config;
  database: Database;
  /** Uploaded files (local disk or S3); buildApp creates it from config.storage when not given. */
  storage: ObjectStorage;
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
  /** Mail outbox worker (runs only when SMTP_URL is set): false to not start it, or its timings. */
  mailWorker?: false | { pollMs?: number; retryBaseMs?: number };
  /** Called for every route as it is registered (the abuse tests' route inventory). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
}

const DEFAULT_WEB_DIR = path.resolve(fileURLToPath(new URL("../dist/web", import.meta.url)));
const ONE_MEBIBYTE = 1024 * 1024;

/** Plugins in a fixed order: config and database → security → error handling → feature routes → SPA. */
export async function buildApp(
  given: Omit<AppDeps, "storage"> & Partial<AppDeps>,
  options: BuildAppOptions = {},
) {
  const deps: AppDeps = { ...given, storage: given.storage ?? createStorage(given.config) };
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
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  if (!given.storage) app.addHook("onClose", () => deps.storage.close());

  await registerSecurity(app, { secureCookies: deps.config.cookieSecure });
  await app.register(cookie, { secret: deps.config.sessionSecret });
  await app.register(rateLimit, { global: false });
  registerErrorHandler(app);
  await app.register(sessionPlugin);
  registerRequestLog(app);
  registerMail(app, options.mailWorker);
  registerMetrics(app);
  await registerOpenApi(app, deps.config);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(devMailboxRoutes);
  await app.register(chatRoutes, { prefix: "/api/chat" });
  await app.register(adminChatRoutes, { prefix: "/api/admin/chats" });
  await app.register(kycRoutes);
  await app.register(objectRoutes);
  await app.register(kycAdminRoutes, { prefix: "/api/admin" });
  await app.register(adminRoutes, { prefix: "/api/admin" });
  await app.register(securityRoutes);
  await app.register(accountRoutes);
  await app.register(transferRoutes, { prefix: "/api/transfer" });
  await app.register(adminMoneyRoutes, { prefix: "/api/admin" });

  await registerSpa(app, options.webDir ?? DEFAULT_WEB_DIR);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
