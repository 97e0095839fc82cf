import type { FastifyInstance } from "fastify";
import { PASSKEY_ENDPOINTS } from "@/contract/passkeys";
import {
  deletePasskey,
  findUserPasskeys,
  renamePasskey,
} from "@/server/features/auth/passkeys/manage-passkeys";
import { loginWithPasskey } from "@/server/features/auth/passkeys/passkey-login";
import { startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { createRegistrationOptions, registerPasskey } from "@/server/features/auth/passkeys/register-passkey";
import { deviceCookieName, deviceCookieOptions } from "@/server/features/security/known-devices";
import { registerEndpoints } from "@/server/lib/endpoints";
import { perIpLimit } from "@/server/lib/rate-limit";
import { sessionCookieName } from "@/server/lib/session";
import { signedInUser } from "@/server/lib/session-plugin";

/** Passkeys: the user's list, registration, rename and removal, and passwordless sign-in. */
export async function passkeyRoutes(app: FastifyInstance) {
  const { deps } = app;
  const cookieName = sessionCookieName(deps.config);

  registerEndpoints(app, PASSKEY_ENDPOINTS, {
    "GET /api/auth/passkeys": (request) => findUserPasskeys(deps.database.db, signedInUser(request).id),
    "POST /api/auth/passkeys/registration-options": {
      config: perIpLimit(app, 20),
      handler: async (request) => ({ ...(await createRegistrationOptions(deps, signedInUser(request))) }),
    },
    "POST /api/auth/passkeys": {
      config: perIpLimit(app, 20),
      handler: (request) => registerPasskey(deps, signedInUser(request), request.body),
    },
    "PATCH /api/auth/passkeys/:id": (request) =>
      renamePasskey(deps.database.db, signedInUser(request).id, request.params.id, request.body.name),
    "DELETE /api/auth/passkeys/:id": (request) =>
      deletePasskey(deps, signedInUser(request), request.params.id),
    "POST /api/auth/passkey-login/options": async () => {
      const { challengeId, options } = await startPasskeyProof(deps, { userId: null, purpose: "login" });
      return { challengeId, options: { ...options } };
    },
    "POST /api/auth/passkey-login": async (request, reply) => {
      const { token, deviceToken, ...result } = await loginWithPasskey(deps, request.body, {
        userAgent: request.headers["user-agent"],
        ip: request.ip,
        previousToken: request.cookies[cookieName],
        deviceToken: request.cookies[deviceCookieName(deps.config)],
      });
      reply.setCookie(deviceCookieName(deps.config), deviceToken, deviceCookieOptions(deps.config));
      reply.setSessionCookie(token);
      return result;
    },
  });
}
