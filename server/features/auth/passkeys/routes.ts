import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { loginResponse, messageResponse } from "@/contract/auth";
import {
  createPasskeyInput,
  passkeyIdParams,
  passkeyInfo,
  passkeyList,
  passkeyLoginInput,
  passkeyLoginOptionsResponse,
  renamePasskeyInput,
  webauthnOptions,
} from "@/contract/passkeys";
import {
  deletePasskey,
  findUserPasskeys,
  renamePasskey,
} from "@/server/features/auth/passkeys/manage-passkeys";
import { loginWithPasskey } from "@/server/features/auth/passkeys/passkey-login";
import { startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { createRegistrationOptions, registerPasskey } from "@/server/features/auth/passkeys/register-passkey";
import { requireFreshStepUp } from "@/server/features/auth/step-up";
import { deviceCookieName, deviceCookieOptions } from "@/server/features/security/known-devices";
import { keyedLimit, perIpLimit } from "@/server/lib/rate-limit";
import { sessionCookieName } from "@/server/lib/session";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Passkeys: the user's list, registration, rename and removal, and passwordless sign-in. */
export async function passkeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const cookieName = sessionCookieName(deps.config);
  const perUser = (name: string, max: number) =>
    keyedLimit(app, { name, max, key: (request) => request.user?.id ?? null });

  app.get("/passkeys", { schema: { response: { 200: passkeyList } }, preHandler: requireUser }, (request) =>
    findUserPasskeys(deps.database.db, signedInUser(request).id),
  );

  app.post(
    "/passkeys/registration-options",
    {
      schema: { response: { 200: webauthnOptions } },
      config: perIpLimit(app, 20),
      // Adding a factor to an account that already has one needs a fresh proof of an existing one.
      preHandler: [requireUser, perUser("passkey-options", 10), requireFreshStepUp],
    },
    async (request) => ({ ...(await createRegistrationOptions(deps, signedInUser(request))) }),
  );

  app.post(
    "/passkeys",
    {
      schema: { body: createPasskeyInput, response: { 200: passkeyInfo } },
      config: perIpLimit(app, 20),
      preValidation: requireUser,
      preHandler: perUser("passkey-register", 10),
    },
    (request) => registerPasskey(deps, signedInUser(request), request.body),
  );

  app.patch(
    "/passkeys/:id",
    {
      schema: { params: passkeyIdParams, body: renamePasskeyInput, response: { 200: passkeyInfo } },
      preValidation: requireUser,
    },
    (request) =>
      renamePasskey(deps.database.db, signedInUser(request).id, request.params.id, request.body.name),
  );

  app.delete(
    "/passkeys/:id",
    {
      schema: { params: passkeyIdParams, response: { 200: messageResponse } },
      preValidation: requireUser,
      preHandler: requireFreshStepUp,
    },
    (request) => deletePasskey(deps, signedInUser(request), request.params.id),
  );

  app.post(
    "/passkey-login/options",
    { schema: { response: { 200: passkeyLoginOptionsResponse } }, config: perIpLimit(app, 20) },
    async () => {
      const { challengeId, options } = await startPasskeyProof(deps, { userId: null, purpose: "login" });
      return { challengeId, options: { ...options } };
    },
  );

  app.post(
    "/passkey-login",
    { schema: { body: passkeyLoginInput, response: { 200: loginResponse } }, config: perIpLimit(app, 10) },
    async (request, reply) => {
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
  );
}
