import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { loginResponse, messageResponse } from "@/contract/auth";
import {
  loginVerifyInput,
  passkeyOptionsResponse,
  recoveryCodesResponse,
  secondFactorStatus,
  stepUpInput,
  stepUpResponse,
  totpConfirmInput,
  totpDisableInput,
  totpEnrollResponse,
} from "@/contract/security";
import {
  pendingLoginCookieName,
  pendingLoginCookieOptions,
  startLoginPasskey,
  verifyPendingLogin,
} from "@/server/features/auth/login-second-factor";
import { requireFreshStepUp, startStepUpPasskey, stepUp } from "@/server/features/auth/step-up";
import {
  confirmTotp,
  disableTotp,
  enrollTotp,
  getSecondFactorStatus,
  regenerateRecoveryCodes,
} from "@/server/features/auth/totp-enrollment";
import { deviceCookieName, deviceCookieOptions } from "@/server/features/security/known-devices";
import { keyedLimit, perIpLimit } from "@/server/lib/rate-limit";
import { sessionCookieName } from "@/server/lib/session";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/**
 * The second step of sign-in, step-up proofs, and the authenticator's setup. Outside /api/admin on
 * purpose: an admin who must enrol a factor reaches these before the back office lets them in.
 */
export async function secondFactorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const cookieName = sessionCookieName(deps.config);
  const pendingCookie = pendingLoginCookieName(deps.config);
  const { maxAge: _maxAge, ...clearPendingOptions } = pendingLoginCookieOptions(deps.config);
  const pendingToken = (request: FastifyRequest) => request.cookies[pendingCookie];
  const perPendingLogin = (name: string, max: number) =>
    keyedLimit(app, {
      name,
      max,
      key: (request) => {
        const token = pendingToken(request);
        return token ? createHash("sha256").update(token).digest("hex") : null;
      },
    });
  const perUser = (name: string, max: number) =>
    keyedLimit(app, { name, max, key: (request) => request.user?.id ?? null });

  app.post(
    "/login/verify",
    {
      schema: { body: loginVerifyInput, response: { 200: loginResponse } },
      config: perIpLimit(app, 30),
      preHandler: perPendingLogin("login-verify", 10),
    },
    async (request, reply) => {
      const { token, deviceToken, ...result } = await verifyPendingLogin(
        deps,
        pendingToken(request),
        request.body.secondFactor,
        {
          userAgent: request.headers["user-agent"],
          ip: request.ip,
          previousToken: request.cookies[cookieName],
          deviceToken: request.cookies[deviceCookieName(deps.config)],
        },
      );
      reply.setCookie(deviceCookieName(deps.config), deviceToken, deviceCookieOptions(deps.config));
      reply.setSessionCookie(token).clearCookie(pendingCookie, clearPendingOptions);
      return result;
    },
  );

  app.post(
    "/login/passkey-options",
    {
      schema: { response: { 200: passkeyOptionsResponse } },
      config: perIpLimit(app, 30),
      preHandler: perPendingLogin("login-passkey-options", 10),
    },
    (request) => startLoginPasskey(deps, pendingToken(request)),
  );

  app.post(
    "/step-up",
    {
      schema: { body: stepUpInput, response: { 200: stepUpResponse } },
      config: perIpLimit(app, 30),
      preValidation: requireUser,
      preHandler: perUser("step-up", 10),
    },
    (request) =>
      stepUp(deps, signedInUser(request), request.session!, request.body.secondFactor, {
        deviceToken: request.cookies[deviceCookieName(deps.config)],
      }),
  );

  app.post(
    "/step-up/passkey-options",
    {
      schema: { response: { 200: passkeyOptionsResponse } },
      config: perIpLimit(app, 30),
      preHandler: [requireUser, perUser("step-up-passkey", 10)],
    },
    (request) => startStepUpPasskey(deps, signedInUser(request)),
  );

  app.get(
    "/second-factor",
    { schema: { response: { 200: secondFactorStatus } }, preHandler: requireUser },
    (request) => getSecondFactorStatus(deps.database.db, signedInUser(request).id),
  );

  app.post(
    "/totp/enroll",
    {
      schema: { response: { 200: totpEnrollResponse } },
      config: perIpLimit(app, 30),
      preHandler: [requireUser, perUser("totp-enroll", 10), requireFreshStepUp],
    },
    (request) => enrollTotp(deps, signedInUser(request)),
  );

  app.post(
    "/totp/confirm",
    {
      schema: { body: totpConfirmInput, response: { 200: recoveryCodesResponse } },
      config: perIpLimit(app, 30),
      preValidation: requireUser,
      preHandler: perUser("totp-confirm", 10),
    },
    (request) => confirmTotp(deps, signedInUser(request), request.body),
  );

  app.post(
    "/totp/disable",
    {
      schema: { body: totpDisableInput, response: { 200: messageResponse } },
      config: perIpLimit(app, 30),
      preValidation: requireUser,
      preHandler: perUser("totp-disable", 5),
    },
    (request) =>
      disableTotp(deps, signedInUser(request), request.body, {
        deviceToken: request.cookies[deviceCookieName(deps.config)],
      }),
  );

  app.post(
    "/recovery-codes",
    {
      schema: { response: { 200: recoveryCodesResponse } },
      config: perIpLimit(app, 30),
      preHandler: [requireUser, perUser("recovery-codes", 5), requireFreshStepUp],
    },
    (request) => regenerateRecoveryCodes(deps, signedInUser(request)),
  );
}
