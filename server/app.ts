import { randomUUID } from "node:crypto";
import path from "node:path";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyPluginOptions,
  type FastifyServerOptions,
} from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppDeps } from "@/server/app-deps";
import type { Config } from "@/server/config";
import { accountRoutes } from "@/server/features/accounts/routes";
import { adminRoutes } from "@/server/features/admin/routes";
import { approveUnfreeze } from "@/server/features/admin/unfreeze-user";
import type { ApprovalActions } from "@/server/features/approvals/approval-actions";
import { approvalRoutes } from "@/server/features/approvals/routes";
import { adminAuditRoutes, dataAccessRoutes } from "@/server/features/audit/routes";
import { passkeyRoutes } from "@/server/features/auth/passkeys/routes";
import { authRoutes } from "@/server/features/auth/routes";
import { secondFactorRoutes } from "@/server/features/auth/second-factor-routes";
import { requireFreshStepUp } from "@/server/features/auth/step-up";
import { adminChatRoutes } from "@/server/features/chat/admin-routes";
import { chatRoutes } from "@/server/features/chat/routes";
import { adminClosureRoutes, closureRoutes } from "@/server/features/closure/routes";
import { complianceAdminRoutes } from "@/server/features/compliance/routes";
import { adminContentRoutes, contentRoutes } from "@/server/features/content/routes";
import { adminMoneyRoutes } from "@/server/features/credits/admin-routes";
import {
  approveBalanceAdjustment,
  approveCredit,
  approveIncomingPayment,
} from "@/server/features/credits/money-approvals";
import { devMailboxRoutes } from "@/server/features/dev-mailbox/routes";
import { eventRoutes } from "@/server/features/events/routes";
import { healthRoutes } from "@/server/features/health/routes";
import { kycAdminRoutes } from "@/server/features/kyc/admin-routes";
import { approveKycReset } from "@/server/features/kyc/kyc-reset-approval";
import { kycRoutes } from "@/server/features/kyc/routes";
import { configureMonitoring } from "@/server/features/monitoring/monitoring-config";
import { monitoringAdminRoutes } from "@/server/features/monitoring/routes";
import { notificationRoutes } from "@/server/features/notifications/routes";
import { objectRoutes, uploadRoutes } from "@/server/features/objects/routes";
import { recipientRoutes } from "@/server/features/recipients/routes";
import { adminSavingsRoutes } from "@/server/features/savings/admin-routes";
import { savingsRoutes } from "@/server/features/savings/routes";
import { approveSavingsRate } from "@/server/features/savings/savings-rates";
import { scheduleRoutes } from "@/server/features/schedules/routes";
import { securityRoutes } from "@/server/features/security/routes";
import { adminSettlementRoutes } from "@/server/features/settlement/admin-routes";
import { depositReturnAction, noChainDepositReturn } from "@/server/features/settlement/deposit-returns";
import { settlementRoutes } from "@/server/features/settlement/routes";
import { noChainSettledOutside, settledOutsideAction } from "@/server/features/settlement/settle-outside";
import { registerSettlementMetrics } from "@/server/features/settlement/settlement-metrics";
import { registerTreasuryMetrics } from "@/server/features/settlement/treasury-metrics";
import { adminTreasuryRoutes } from "@/server/features/settlement/treasury-routes";
import { staffRoutes } from "@/server/features/staff/routes";
import { statementRoutes } from "@/server/features/statements/routes";
import { taxFormAdminRoutes } from "@/server/features/statements/tax-form-admin-routes";
import { tagPaymentRoutes } from "@/server/features/tag-payments/routes";
import { adminTransferRoutes } from "@/server/features/transfers/admin-routes";
import { transferReceiptRoutes } from "@/server/features/transfers/receipt-routes";
import { transferRoutes } from "@/server/features/transfers/routes";
import { approveSendBlockLift } from "@/server/features/transfers/send-block-lift";
import { approveTransferRelease, transferReleaseAction } from "@/server/features/transfers/transfer-release";
import { type JobsOptions, startJobs } from "@/server/jobs/start";
import { settleAfterAnswerWork } from "@/server/lib/after-answer";
import { limitConnections } from "@/server/lib/connection-limits";
import type { EndpointChecks } from "@/server/lib/endpoints";
import { registerErrorHandler, routerErrors } from "@/server/lib/error-handler";
import { firstPageRenderer } from "@/server/lib/first-page-renderer";
import { registerGracefulClose } from "@/server/lib/graceful-close";
import { loggerOptions } from "@/server/lib/logger";
import { registerMail } from "@/server/lib/mail/register-mail";
import { registerMetrics } from "@/server/lib/metrics";
import { registerOpenApi } from "@/server/lib/openapi";
import { registerPollMemory } from "@/server/lib/poll-memory";
import { ProcessHealth } from "@/server/lib/process-health";
import { PROJECT_ROOT } from "@/server/lib/project-root";
import { sharedRateLimitStore } from "@/server/lib/rate-limit-store";
import { assertAdminRouteListed } from "@/server/lib/route-roles";
import { registerSecurity } from "@/server/lib/security";
import { startSessionBroadcast } from "@/server/lib/session-broadcast";
import { sessionPlugin } from "@/server/lib/session-plugin";
import { registerSpa } from "@/server/lib/spa";
import { createStorage } from "@/server/lib/storage/create-storage";
import { registerTextGuard } from "@/server/lib/text-guard";

export interface BuildAppOptions {
  logger?: FastifyServerOptions["logger"];
  /** Directory of the built SPA; defaults to dist/web. */
  webDir?: string;
  /** Mail outbox worker (runs only when SMTP_URL is set): false to not start it, or its timings. */
  mailWorker?: JobsOptions["mailWorker"];
  /** Runner of scheduled transfers (decision 036): false to not start it (tests run passes by hand), or its clock. */
  scheduleRunner?: JobsOptions["scheduleRunner"];
  /**
   * The jobs room (server/jobs/start.ts): its consumers and timings, and `serving` for the loops only serve.ts
   * starts (housekeeping, the chain's). The two loops above are said here at the top, as tests always have.
   */
  jobs?: Omit<JobsOptions, "mailWorker" | "scheduleRunner">;
  /** Called for every route as it is registered (the abuse tests' route inventory). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
  /** The poll memory's clock (Date.now): a test moves it by hand to cross POLL_MEMORY_MS exactly. */
  pollClock?: () => number;
  /**
   * How long a first page may take to draw before the browser draws it instead (RENDER_TIMEOUT_MS, 2 s): a test
   * that checks the drawn markup gives a busy machine longer, one that checks the fallback gives it no time.
   */
  renderTimeoutMs?: number;
}

/** Maker-checker: each feature replays its own approved changes; approvals calls them back by kind. */
const APPROVAL_ACTIONS: ApprovalActions = Object.freeze({
  incoming_payment: approveIncomingPayment,
  credit: approveCredit,
  balance_adjustment: approveBalanceAdjustment,
  kyc_reset: approveKycReset,
  unfreeze: approveUnfreeze,
  transfer_release: approveTransferRelease,
  payout_settled_outside: noChainSettledOutside,
  send_block_lift: approveSendBlockLift,
  deposit_return: noChainDepositReturn,
  savings_rate: approveSavingsRate(),
});

const DEFAULT_WEB_DIR = path.join(PROJECT_ROOT, "dist/web");
const ONE_MEBIBYTE = 1024 * 1024;
/** Descriptors kept free of client sockets (besides the database pool): storage, logs, Redis, listeners. */
const RESERVED_DESCRIPTORS = 64;

/**
 * Fastify refuses hop counts outright (they cannot vouch for the immediate peer), so a count becomes "trust
 * the first n addresses from the right"; an address list is checked by proxy-addr. The README says to prefer
 * the list when the app can be reached without the proxy.
 */
function trustProxyOption(trust: Config["trustProxy"]): FastifyServerOptions["trustProxy"] {
  if (typeof trust === "number") return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** A feature's routes: one Fastify plugin under its own prefix, its paths relative to that prefix. */
function routesAt<Options extends FastifyPluginOptions>(
  prefix: string,
  routes: FastifyPluginAsync<Options>,
  options?: Options,
) {
  return (app: FastifyInstance) => app.register(routes, { ...(options as Options), prefix });
}

/**
 * Every feature's routes, in registration order, each plugin with its own prefix (the URL base all its routes
 * share, never one that would turn a route into a bare "/"): an area's customer routes in its routes.ts, its
 * staff routes in admin-routes.ts under /api/admin.
 */
const FEATURE_ROUTES = [
  routesAt("/", healthRoutes),
  routesAt("/api", authRoutes),
  routesAt("/api/auth", passkeyRoutes),
  routesAt("/api/auth", secondFactorRoutes),
  routesAt("/dev", devMailboxRoutes),
  routesAt("/api/chat", chatRoutes),
  routesAt("/api/admin/chats", adminChatRoutes),
  routesAt("/api/kyc", kycRoutes),
  routesAt("/api/objects", uploadRoutes),
  routesAt("/objects", objectRoutes),
  routesAt("/api/admin", kycAdminRoutes),
  routesAt("/api/admin", adminRoutes),
  routesAt("/api/admin", staffRoutes),
  routesAt("/api/account", securityRoutes),
  routesAt("/api/account", closureRoutes),
  routesAt("/api/admin", adminClosureRoutes),
  routesAt("/api", accountRoutes),
  routesAt("/api", contentRoutes),
  routesAt("/api/transfer", transferRoutes),
  routesAt("/api/transfer", tagPaymentRoutes),
  routesAt("/api/savings", savingsRoutes),
  routesAt("/api/admin", adminSavingsRoutes),
  routesAt("/api/transfers", transferReceiptRoutes),
  routesAt("/api/admin", adminTransferRoutes),
  routesAt("/api/admin", adminMoneyRoutes),
  routesAt("/api/admin", adminContentRoutes),
  (app: FastifyInstance) => {
    // With chain settlement an approved transfer release queues its payout instead of completing it, and a
    // payout settled outside Pillar is recorded on this chain (decision 040).
    const chain = app.deps.config.chain;
    const actions = chain
      ? {
          ...APPROVAL_ACTIONS,
          transfer_release: transferReleaseAction({ chainId: chain.chainId }),
          payout_settled_outside: settledOutsideAction(chain),
          deposit_return: depositReturnAction(chain),
        }
      : APPROVAL_ACTIONS;
    return routesAt("/api/admin", approvalRoutes, { actions })(app);
  },
  routesAt("/api", statementRoutes),
  routesAt("/api", recipientRoutes),
  routesAt("/api", scheduleRoutes),
  routesAt("/api", settlementRoutes),
  routesAt("/api/admin", adminAuditRoutes),
  routesAt("/api/account", dataAccessRoutes),
  routesAt("/api/admin", complianceAdminRoutes),
  routesAt("/api", eventRoutes),
  routesAt("/api", notificationRoutes),
  routesAt("/api/admin", monitoringAdminRoutes),
  routesAt("/api/admin", adminSettlementRoutes),
  routesAt("/api/admin", adminTreasuryRoutes),
  routesAt("/api/admin", taxFormAdminRoutes),
];

/** Plugins in a fixed order: config and database → security → error handling → feature routes → SPA. */
export async function buildApp(
  given: Omit<AppDeps, "storage"> & Partial<AppDeps>,
  options: BuildAppOptions = {},
) {
  const deps: AppDeps = { ...given, storage: given.storage ?? createStorage(given.config) };
  configureMonitoring({ approvalThresholdCents: deps.config.approvalThresholdCents });
  const { http } = deps.config;
  const app = Fastify({
    ...(options.logger === undefined ? await loggerOptions(deps.config) : { logger: options.logger }),
    bodyLimit: ONE_MEBIBYTE,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(deps.config.trustProxy),
    frameworkErrors: routerErrors,
    // A client trickling a body or headers is cut off (408) instead of holding a socket for ever.
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    http: {
      requestTimeout: http.requestTimeoutMs,
      headersTimeout: http.headersTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default, longer than a short timeout itself).
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(5000, Math.floor(Math.min(http.requestTimeoutMs, http.headersTimeoutMs) / 4)),
      ),
    },
  }).withTypeProvider<ZodTypeProvider>();
  const maxConnections = limitConnections(
    app.server,
    http,
    deps.config.trustProxy,
    app.log,
    deps.config.databasePoolSize + RESERVED_DESCRIPTORS,
  );

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("deps", deps);
  app.decorate("processHealth", new ProcessHealth());
  app.decorate("maxConnections", maxConnections);
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  if (!given.storage) app.addHook("onClose", () => deps.storage.close());

  registerGracefulClose(app);
  await registerSecurity(app, { secureCookies: deps.config.cookieSecure });
  await app.register(cookie, { secret: deps.config.sessionSecret });
  if (deps.config.redisUrl) {
    // Imported only when configured: ioredis costs ~20 MiB resident in a process that never uses it.
    const { connectRedis, redisReady } = await import("@/server/lib/redis");
    const redis = connectRedis(deps.config.redisUrl, app.log);
    app.addHook("onClose", async () => {
      redis.disconnect();
    });
    if (!(await redisReady(redis)))
      app.log.warn("rate limits: Redis unreachable at start, counting per instance");
    const store = sharedRateLimitStore(redis, `${deps.config.redisKeyPrefix}rl:`, app.log);
    await app.register(rateLimit, { global: false, store });
  } else {
    await app.register(rateLimit, { global: false });
  }
  registerErrorHandler(app);
  registerTextGuard(app);
  await app.register(sessionPlugin);
  const polls = registerPollMemory(app, deps.config.pollMemoryMs, options.pollClock);
  // Every background loop and the instance's one LISTEN connection, before anything that listens on it (the
  // session broadcast here, the event streams with the routes).
  const jobs = await startJobs(deps, app.log, {
    ...options.jobs,
    mailWorker: options.mailWorker,
    scheduleRunner: options.scheduleRunner,
  });
  app.decorate("jobs", jobs);
  app.addHook("onClose", () => jobs.close());
  const sessionBroadcast = await startSessionBroadcast(deps.database, jobs.hub, app.log, polls);
  app.addHook("onClose", () => sessionBroadcast.close());
  // Work a request queued after its answer (a reset code) finishes before the database closes.
  app.addHook("onClose", settleAfterAnswerWork);
  registerMail(app);
  registerSettlementMetrics(
    registerMetrics(app, [(registry) => registerTreasuryMetrics(app, registry)]),
    app,
  );
  await registerOpenApi(app, deps.config);

  // Endpoints declared by contract ask for a fresh second factor through the auth area's check.
  app.decorate("endpointChecks", { requireFreshStepUp } satisfies EndpointChecks);
  // Every admin route must have a row in the role table before it can exist.
  app.addHook("onRoute", (route) => assertAdminRouteListed(route.method, route.url));
  for (const register of FEATURE_ROUTES) await register(app);

  // The web's server render, loaded by path with the first page that needs it (decision 022).
  const renderer = firstPageRenderer({ watch: deps.config.env === "development" });
  app.addHook("onClose", renderer.close);
  await registerSpa(app, options.webDir ?? DEFAULT_WEB_DIR, renderer.render, options.renderTimeoutMs);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
