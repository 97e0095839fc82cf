import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger } from "fastify";
import type { Redis, Result } from "ioredis";

// Counting goes through the plugin's documented `store` option (a class with `incr` and `child`, README
// "Custom `store` example usage"); the plugin's own store files are not part of its API, so both counters
// below are ours, with the plugin's fixed-window semantics.

type Counted = { current: number; ttl: number };
type Callback = Parameters<FastifyRateLimitStore["incr"]>[1];

/**
 * What the plugin hands a store: its global options to the constructor, and to `child` those merged with a
 * route's `config.rateLimit` plus `routeInfo` (the route; empty for `createRateLimit`). The plugin's types
 * leave both loose, so only these fields are read.
 */
interface CounterOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
  routeInfo?: { method?: unknown; url?: unknown };
}
const counterOptions = (given: object): CounterOptions => given as CounterOptions;

/** The window's end after this hit, as the plugin counts: a new window, a kept one, or one pushed out. */
function windowAfterHit(
  current: number,
  max: number,
  timeWindow: number,
  { continueExceeding, exponentialBackoff }: CounterOptions,
): number | null {
  if (current > max && continueExceeding) return timeWindow;
  if (current > max && exponentialBackoff) {
    const ttl = timeWindow * 2 ** (current - max - 1);
    return Number.isSafeInteger(ttl) ? ttl : Number.MAX_SAFE_INTEGER;
  }
  return null;
}

const DEFAULT_CACHE = 5_000;

/** Counts in this process: a fixed window per key, the least recently counted keys forgotten past `cache`. */
export class MemoryCounter implements FastifyRateLimitStore {
  private readonly windows = new Map<string, { current: number; startMs: number; ttl: number }>();
  private readonly options: CounterOptions;

  constructor(options: object) {
    this.options = counterOptions(options);
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    const now = Date.now();
    const found = this.windows.get(key);
    this.windows.delete(key);
    let counted: { current: number; startMs: number; ttl: number };
    if (!found || found.startMs + found.ttl <= now) {
      counted = { current: 1, startMs: now, ttl: timeWindow };
    } else {
      const current = found.current + 1;
      const pushed = windowAfterHit(current, max, timeWindow, this.options);
      counted = pushed === null ? { ...found, current } : { current, startMs: now, ttl: pushed };
    }
    this.windows.set(key, counted);
    // Map keeps insertion order and each count re-inserts its key: the first key is the least recent.
    if (this.windows.size > (this.options.cache ?? DEFAULT_CACHE)) {
      this.windows.delete(this.windows.keys().next().value as string);
    }
    cb(null, { current: counted.current, ttl: counted.startMs + counted.ttl - now });
  }

  child(routeOptions: object): MemoryCounter {
    return new MemoryCounter(routeOptions);
  }
}

/** INCR and the window's expiry in one atomic step, so every instance counts the same key alike. */
const COUNT_LUA = `
local current = redis.call('INCR', KEYS[1])
local window = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
if current == 1 or (ARGV[3] == 'true' and current > max) then
  redis.call('PEXPIRE', KEYS[1], window)
elseif ARGV[4] == 'true' and current > max then
  window = math.min(window * (2 ^ (current - max - 1)), 9007199254740991)
  redis.call('PEXPIRE', KEYS[1], window)
else
  window = redis.call('PTTL', KEYS[1])
end
return {current, window}`;

declare module "ioredis" {
  interface RedisCommander<Context> {
    pillarRateLimitCount(
      key: string,
      timeWindow: number,
      max: number,
      continueExceeding: string,
      exponentialBackoff: string,
    ): Result<[number, number], Context>;
  }
}

/** Counts in Redis under `prefix`; a route's counter gets its own prefix (method and URL). */
class RedisCounter implements FastifyRateLimitStore {
  private readonly options: CounterOptions;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: object,
  ) {
    this.options = counterOptions(options);
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.redis
      .pillarRateLimitCount(
        this.prefix + key,
        timeWindow,
        max,
        String(this.options.continueExceeding === true),
        String(this.options.exponentialBackoff === true),
      )
      .then(
        ([current, ttl]) => cb(null, { current, ttl }),
        (err: Error) => cb(err),
      );
  }

  child(routeOptions: object): RedisCounter {
    const { routeInfo } = counterOptions(routeOptions);
    const route = `${String(routeInfo?.method ?? "")}${String(routeInfo?.url ?? "")}`;
    return new RedisCounter(this.redis, `${this.prefix}${route}-`, routeOptions);
  }
}

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
  // A command on the connection: ioredis sends the script's SHA (EVALSHA), not its text, with each count.
  redis.defineCommand("pillarRateLimitCount", { numberOfKeys: 1, lua: COUNT_LUA });
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

  class FallbackStore implements FastifyRateLimitStore {
    constructor(
      private readonly shared: RedisCounter,
      private readonly local: MemoryCounter,
    ) {}

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      if (redis.status !== "ready") {
        warn(new Error(`Redis connection is ${redis.status}`));
        this.local.incr(key, cb, timeWindow, max);
        return;
      }
      this.shared.incr(
        key,
        (err, result?: Counted) => {
          if (!err) return cb(null, result);
          warn(err);
          dropIfFrozen(err);
          this.local.incr(key, cb, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: object): FallbackStore {
      return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }

  // The plugin constructs the store itself, from its global options (the documented `store` option).
  return class GlobalStore extends FallbackStore {
    constructor(options: object) {
      super(new RedisCounter(redis, nameSpace, options), new MemoryCounter(options));
    }
  };
}
