import type { FastifyInstance } from "fastify";
import { ACCOUNT_SECURITY_ENDPOINTS } from "@/contract/security";
import { checkFreezeLink, freezeAccount } from "@/server/features/security/freeze-account";
import { undoSendBlock } from "@/server/features/security/send-block-undo";
import { registerEndpoints } from "@/server/lib/endpoints";

/** "This wasn't me": public, since whoever reported it may have no working sign-in left. */
export async function securityRoutes(app: FastifyInstance) {
  registerEndpoints(app, ACCOUNT_SECURITY_ENDPOINTS, {
    "POST /api/account/freeze": (request) => freezeAccount(app.deps, request.body),
    "POST /api/account/freeze/check": (request) => checkFreezeLink(app.deps, request.body),
    // The link e-mailed when "Block crypto sends" is switched on: undoes it within hours (decision 047).
    "POST /api/account/send-block/undo": (request) => undoSendBlock(app.deps, request.body.token),
  });
}
