import type { FastifyInstance, FastifyRequest } from "fastify";
import { isAnsweredTransferKey } from "@/server/features/transfers/create-transfer";
import { keyedLimit } from "@/server/lib/rate-limit";
import { signedInUser } from "@/server/lib/session-plugin";

/** Per customer per minute, before RATE_LIMIT_SCALE; the daily count cap (TRANSFER_DAILY_COUNT_LIMIT) is separate. */
const TRANSFERS_PER_MINUTE = 20;

export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return Array.isArray(key) ? key[0] : key;
}

type Limit = ReturnType<typeof keyedLimit>;

/** The limits a customer's money-out creations share, whichever area's route creates them. */
export type CreationLimits = { proofLimit: Limit; creationLimit: Limit };

/** One pair per app: every plugin of one Fastify instance shares its `server`. */
const limitsByApp = new WeakMap<object, CreationLimits>();

/**
 * The proofs and creations counted across plain transfers, payments by $tag and paid money requests: one count
 * per customer, so both areas' routes take their preHandlers from here. Made once per app instance, since
 * @fastify/rate-limit gives each limiter its own in-memory store (a second limiter of the same name would count
 * apart unless Redis is configured).
 */
export function transferCreationLimits(app: FastifyInstance): CreationLimits {
  const made = limitsByApp.get(app.server);
  if (made) return made;
  const { db } = app.deps.database;
  const limits: CreationLimits = {
    // Only requests carrying a proof are counted, so guessing codes is slow and plain transfers pay nothing.
    proofLimit: keyedLimit(app, {
      name: "transfer-proof",
      max: 10,
      key: (request) =>
        (request.body as { secondFactor?: unknown } | undefined)?.secondFactor
          ? (request.user?.id ?? null)
          : null,
    }),
    // Every customer's creations are counted (shared through Redis when configured): a script making hundreds of
    // requests a second would otherwise flood the admin desk. A replay of an answered key is never refused.
    creationLimit: keyedLimit(app, {
      name: "transfer-create",
      max: TRANSFERS_PER_MINUTE,
      key: (request) => request.user?.id ?? null,
      exempt: (request) => isAnsweredTransferKey(db, signedInUser(request).id, idempotencyKeyOf(request)),
    }),
  };
  limitsByApp.set(app.server, limits);
  return limits;
}
