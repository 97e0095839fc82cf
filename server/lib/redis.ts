import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

/**
 * One connection per instance for shared rate limits. Commands fail fast while it is down (no offline queue,
 * one retry), so a Redis outage costs a warning and per-instance counting, never a hung request.
 */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  // ioredis emits "error" on every failed reconnect; the store logs the consequence, this keeps it from throwing.
  redis.on("error", (err) => log.debug({ err }, "redis connection error"));
  return redis;
}

/**
 * Resolves once the connection is ready (true), or at its first failure (false: the caller goes on, counting per
 * instance until Redis is back). At start, so an instance's first requests already count in the shared limits:
 * until the connection is ready the store counts on its own, and a restart (every deploy) would otherwise open
 * a window in which each instance allowed the whole limit again. Bounded by the connect timeout.
 */
export function redisReady(redis: Redis): Promise<boolean> {
  if (redis.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (ready: boolean) => {
      redis.off("ready", onReady);
      redis.off("error", onFailure);
      redis.off("end", onFailure);
      resolve(ready);
    };
    const onReady = () => settle(true);
    const onFailure = () => settle(false);
    redis.once("ready", onReady);
    redis.once("error", onFailure);
    redis.once("end", onFailure);
  });
}
