import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userIdParams } from "@/contract/admin";
import {
  closeAccountInput,
  closeAccountResponse,
  closureStatus,
  staffCloseAccountInput,
} from "@/contract/closure";
import { closeAccountByStaff, closeOwnAccount, getClosure } from "@/server/features/closure/close-account";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireAdmin, requireUser, signedInUser } from "@/server/lib/session-plugin";

/** The customer's own closure (decision 059), under /api/account. */
export async function closureRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", requireUser);
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
  app.get("/closure", { schema: { response: { 200: closureStatus } } }, (request) =>
    getClosure(app.deps.database.db, signedInUser(request).id),
  );
  app.post(
    "/close",
    {
      schema: { body: closeAccountInput, response: { 200: closeAccountResponse } },
      preHandler: passwordTries,
    },
    (request) =>
      closeOwnAccount(app.deps, { ...signedInUser(request), session: request.session }, request.body),
  );
}

/** Staff close a customer's account with a reason (roles: contract/admin-route-roles.ts), under /api/admin. */
export async function adminClosureRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook("onRequest", requireAdmin);
  app.post(
    "/users/:userId/close",
    {
      schema: {
        params: userIdParams,
        body: staffCloseAccountInput,
        response: { 200: closeAccountResponse },
      },
    },
    (request) =>
      closeAccountByStaff(app.deps, signedInUser(request), request.params.userId, request.body.reason),
  );
}
