import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { AppError } from "@/server/lib/errors";

/** Every limit goes through here so RATE_LIMIT_SCALE (benchmarks) raises them all alike. */
export function scaledMax(app: FastifyInstance, max: number): number {
  return Math.max(1, Math.round(max * app.deps.config.rateLimitScale));
}

/** Route `config` for a per-IP limit through @fastify/rate-limit; its 429 goes through the error handler. */
export function perIpLimit(app: FastifyInstance, max: number, timeWindow: string | number = "1 minute") {
  return { rateLimit: { max: scaledMax(app, max), timeWindow } };
}

/**
 * A second, keyed limit (e.g. per e-mail) as a preHandler. @fastify/rate-limit runs only one hook per
 * request, so this one uses its createRateLimit counter and throws our own 429. `key` may look something
 * up (the login limiter asks whether the browser is known); null skips the limit. `exempt`, asked only once
 * the limit is exceeded (so the common path pays nothing), lets through a request that must never be refused
 * (an idempotent replay of an answered transfer).
 */
export function keyedLimit(
  app: FastifyInstance,
  {
    name,
    max,
    timeWindow = "1 minute",
    key,
    exempt,
  }: {
    name: string;
    max: number;
    timeWindow?: string | number;
    key: (request: FastifyRequest) => string | null | Promise<string | null>;
    exempt?: (request: FastifyRequest) => Promise<boolean>;
  },
) {
  const keys = new WeakMap<FastifyRequest, string>();
  const limiter = app.createRateLimit({
    max: scaledMax(app, max),
    timeWindow,
    keyGenerator: (request) => `${name}:${keys.get(request) ?? ""}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const value = await key(request);
    if (value === null) return;
    keys.set(request, value);
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      if (exempt && (await exempt(request))) return;
      reply.header("retry-after", String(result.ttlInSeconds));
      throw new AppError("RATE_LIMITED", AUTH_SERVER_MESSAGES.tooManyAttempts, {
        retryAfterSeconds: result.ttlInSeconds,
      });
    }
  };
}
