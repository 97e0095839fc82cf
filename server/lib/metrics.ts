import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { plainText } from "@/contract/media";
import { AppError } from "@/server/lib/errors";

/** Route label for requests no route matched, so scanners probing random paths cannot grow the label set. */
const UNMATCHED_ROUTE = "unmatched";
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const sha256 = (value: string) => createHash("sha256").update(value).digest();

/** Compares digests, so neither the token's content nor its length leaks through timing. */
function isSameToken(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return address === "::1" || (isIP(v4) === 4 && v4.startsWith("127."));
}

/**
 * With METRICS_TOKEN: a matching bearer token, from anywhere. Without it: anyone outside production,
 * and in production only a direct scrape over loopback. The socket address is used rather than
 * request.ip (which trusts X-Forwarded-For there), and a forwarded request is refused, so a reverse
 * proxy on the same host cannot expose /metrics to the internet.
 */
function checkMetricsAccess(request: FastifyRequest, token: string | undefined, isProduction: boolean) {
  if (token) {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? "");
    if (!match || !isSameToken(match[1], token)) {
      throw new AppError("UNAUTHORIZED", "A valid metrics token is required");
    }
    return;
  }
  if (!isProduction) return;
  const isForwarded = Boolean(request.headers["x-forwarded-for"] || request.headers.forwarded);
  if (isForwarded || !isLoopback(request.socket.remoteAddress)) {
    throw new AppError("FORBIDDEN", "Metrics are served only over loopback unless METRICS_TOKEN is set");
  }
}

/**
 * Prometheus metrics on a per-app registry: request latency by route pattern, DB pool, mail outbox backlog, process.
 * Answers the registry, so the app adds the features' own gauges (server/lib never imports a feature).
 */
export function registerMetrics(
  app: FastifyInstance,
  /** Gauges a feature adds on the same registry before the defaults: the treasury's. */
  more: ((registry: Registry) => void)[] = [],
): Registry {
  const { database, config } = app.deps;
  const registry = new Registry();
  for (const add of more) add(registry);
  collectDefaultMetrics({ register: registry });
  app.jobs.stats.register(registry);

  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: "db_pool_connections",
    help: "Database pool connections by state (total, idle) and requests waiting for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = database.poolStats();
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });

  new Gauge({
    name: "mail_outbox_undelivered",
    help: "Mail outbox rows not delivered: pending (backlog, still retried) and failed (given up)",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const rows = await database.query<{ status: string; count: number }>(
          "select status, count(*)::int as count from mail_outbox where status <> 'sent' group by status",
        );
        this.set({ status: "pending" }, 0);
        this.set({ status: "failed" }, 0);
        for (const row of rows) this.set({ status: row.status }, row.count);
      } catch (err) {
        // A scrape during a database outage still reports the process and the pool; the backlog is left out.
        app.log.warn({ err }, "metrics: could not count the mail outbox");
      }
    },
  });

  new Gauge({
    name: "payouts_waiting",
    help: "Payouts waiting because the hot wallet is short (reason usdc or gas): an alert when above 0",
    labelNames: ["reason"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      this.set({ reason: "usdc" }, 0);
      this.set({ reason: "gas" }, 0);
      try {
        const rows = await database.query<{ reason: string; count: number }>(
          "select waiting_reason as reason, count(*)::int as count from payouts where status = 'queued' and waiting_reason in ('usdc', 'gas') group by waiting_reason",
        );
        for (const row of rows) this.set({ reason: row.reason }, row.count);
      } catch (err) {
        app.log.warn({ err }, "metrics: could not count waiting payouts");
      }
    },
  });

  // The differences open after the latest finished run (decision 057: each kept once until a run no longer finds
  // it), split by whether staff acknowledged them (decision 040): only those nobody has explained count in the
  // alerting gauge; acknowledged ones have their own.
  const latestDifferences = async (chainId: number) =>
    database.query<{ area: string; acknowledged: boolean; count: number }>(
      `select area, (acknowledged_at is not null) as acknowledged, count(*)::int as count
       from reconciliation_differences where chain_id = $1 and resolved_at is null
       group by 1, 2`,
      [chainId],
    );
  for (const acknowledged of [false, true]) {
    new Gauge({
      name: acknowledged ? "reconciliation_acknowledged_differences" : "reconciliation_differences",
      help: acknowledged
        ? "Differences open after the latest finished reconciliation that staff acknowledged with a reason, by area"
        : "Differences between the chain and the ledger open after the latest finished reconciliation that nobody has acknowledged, by area (hot_wallet, payouts, deposits): an alert when above 0",
      labelNames: ["area"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        if (!config.chain) return;
        for (const area of ["hot_wallet", "payouts", "deposits"]) this.set({ area }, 0);
        try {
          for (const row of await latestDifferences(config.chain.chainId)) {
            if (row.acknowledged === acknowledged) this.set({ area: row.area }, row.count);
          }
        } catch (err) {
          app.log.warn({ err }, "metrics: could not count reconciliation differences");
        }
      },
    });
  }

  new Gauge({
    name: "reconciliation_last_finished_seconds",
    help: "Unix time the latest reconciliation finished (clean or with differences); stale means the hourly job stopped",
    registers: [registry],
    async collect() {
      this.reset();
      if (!config.chain) return;
      try {
        const [row] = await database.query<{ at: number | null }>(
          "select extract(epoch from max(finished_at))::float8 as at from reconciliation_reports where chain_id = $1 and status in ('clean', 'differences')",
          [config.chain.chainId],
        );
        if (row?.at) this.set(row.at);
      } catch (err) {
        app.log.warn({ err }, "metrics: could not read the last reconciliation");
      }
    },
  });

  app.addHook("onResponse", (request, reply, done) => {
    requestDuration.observe(
      {
        method: request.method,
        route: request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get("/metrics", { schema: { hide: true, response: { 200: plainText } } }, async (request, reply) => {
    checkMetricsAccess(request, config.metricsToken, config.isProduction);
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}
