import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { freezeAccountInput, freezeAccountResponse, freezeLinkStatus } from "@/contract/security";
import { undoSendBlockInput, undoSendBlockResponse } from "@/contract/self-limits";
import { checkFreezeLink, freezeAccount } from "@/server/features/security/freeze-account";
import { undoSendBlock } from "@/server/features/security/send-block-undo";
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
  // The link e-mailed when "Block crypto sends" is switched on: undoes it within hours (decision 047).
  app.post(
    "/send-block/undo",
    {
      schema: { body: undoSendBlockInput, response: { 200: undoSendBlockResponse } },
      config: perIpLimit(app, 10),
    },
    (request) => undoSendBlock(app.deps, request.body.token),
  );
}
