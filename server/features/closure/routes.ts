import type { FastifyInstance } from "fastify";
import { CLOSURE_ADMIN_ENDPOINTS, CLOSURE_ENDPOINTS } from "@/contract/closure";
import { closeAccountByStaff, closeOwnAccount, getClosure } from "@/server/features/closure/close-account";
import { registerEndpoints } from "@/server/lib/endpoints";
import { keyedLimit } from "@/server/lib/rate-limit";
import { signedInUser } from "@/server/lib/session-plugin";

/** The customer's own closure (decision 059), under /api/account. */
export async function closureRoutes(app: FastifyInstance) {
  // The password that confirms a closure (no second factor to step up with): few guesses per customer.
  const passwordTries = keyedLimit(app, {
    name: "closure-password",
    max: 5,
    timeWindow: "15 minutes",
    key: (request) =>
      (request.body as { password?: unknown } | undefined)?.password === undefined
        ? null
        : (request.user?.id ?? null),
  });
  registerEndpoints(app, CLOSURE_ENDPOINTS, {
    "GET /api/account/closure": (request) => getClosure(app.deps.database.db, signedInUser(request).id),
    "POST /api/account/close": {
      preHandler: [passwordTries],
      handler: (request) =>
        closeOwnAccount(app.deps, { ...signedInUser(request), session: request.session }, request.body),
    },
  });
}

/** Staff close a customer's account with a reason (roles: its contract), under /api/admin. */
export async function adminClosureRoutes(app: FastifyInstance) {
  registerEndpoints(app, CLOSURE_ADMIN_ENDPOINTS, {
    "POST /api/admin/users/:userId/close": (request) =>
      closeAccountByStaff(app.deps, signedInUser(request), request.params.userId, request.body.reason),
  });
}
