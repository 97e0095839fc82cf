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
