import { createRequire } from "node:module";
import type { FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

type Counted = { current: number; ttl: number };
type Callback = (err: Error | null, result: Counted | null) => void;

/** The store contract @fastify/rate-limit calls (its LocalStore and RedisStore implement it). */
interface CounterStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): CounterStore;
}
interface RouteOptions {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
  cache?: number;
  routeInfo: { method: string; url: string };
}

// The plugin ships its stores as CommonJS files without types; only these two constructors are used.
const require = createRequire(import.meta.url);
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => CounterStore;
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => CounterStore;

const WARN_EVERY_MS = 60_000;

/**
 * Counts in Redis so every instance shares one limit; while Redis is unreachable each instance counts on its
 * own (with a warning at most once a minute) — limits get looser for a while, the service never goes down.
 */
export function sharedRateLimitStore(
  redis: Redis,
  nameSpace: string,
  log: FastifyBaseLogger,
): FastifyRateLimitStoreCtor {
  let lastWarnAt = 0;
  const warn = (err: unknown) => {
    if (Date.now() - lastWarnAt < WARN_EVERY_MS) return;
    lastWarnAt = Date.now();
    log.warn({ err }, "rate limits: Redis unreachable, counting per instance until it returns");
  };

  // A frozen Redis (partition, paused process) keeps the socket open, so the connection still looks ready
  // and every counted request would wait out the command timeout. Dropping it makes ioredis reconnect: the
  // status stays short of "ready" until Redis answers again, and meanwhile requests count locally at once.
  const dropIfFrozen = (err: Error) => {
    if (!/timed out/i.test(err.message) || redis.status !== "ready") return;
    log.warn("rate limits: Redis stopped answering; reconnecting, counting per instance meanwhile");
    redis.disconnect(true);
  };

  class FallbackStore implements CounterStore {
    constructor(
      private readonly shared: CounterStore,
      private readonly local: CounterStore,
    ) {}

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      if (redis.status !== "ready") {
        warn(new Error(`Redis connection is ${redis.status}`));
        this.local.incr(key, cb, timeWindow, max);
        return;
      }
      this.shared.incr(
        key,
        (err, result) => {
          if (!err) return cb(null, result);
          warn(err);
          dropIfFrozen(err);
          this.local.incr(key, cb, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): CounterStore {
      return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }

  // @fastify/rate-limit constructs the store itself from its global parameters (typed loosely by the plugin).
  return class GlobalStore extends FallbackStore {
    constructor(params: { continueExceeding: boolean; exponentialBackoff: boolean }) {
      super(
        new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace),
        new LocalStore(params.continueExceeding, params.exponentialBackoff),
      );
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
