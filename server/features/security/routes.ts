import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { freezeAccountInput, freezeAccountResponse, freezeLinkStatus } from "@/contract/security";
import { checkFreezeLink, freezeAccount } from "@/server/features/security/freeze-account";
import { perIpLimit } from "@/server/lib/rate-limit";

/** "This wasn't me": public, since whoever reported it may have no working sign-in left. */
export async function securityRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    "/freeze",
    {
      schema: { body: freezeAccountInput, response: { 200: freezeAccountResponse } },
      config: perIpLimit(app, 10),
    },
    (request) => freezeAccount(app.deps, request.body),
  );
  app.post(
    "/freeze/check",
    {
      schema: { body: freezeAccountInput, response: { 200: freezeLinkStatus } },
      config: perIpLimit(app, 30),
    },
    (request) => checkFreezeLink(app.deps, request.body),
  );
}
