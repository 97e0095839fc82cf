import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { SECOND_FACTOR_ENDPOINTS } from "@/contract/security";
import {
  pendingLoginCookieName,
  pendingLoginCookieOptions,
  startLoginPasskey,
  verifyPendingLogin,
} from "@/server/features/auth/login-second-factor";
import { startStepUpPasskey, stepUp } from "@/server/features/auth/step-up";
import {
  confirmTotp,
  disableTotp,
  enrollTotp,
  getSecondFactorStatus,
  regenerateRecoveryCodes,
} from "@/server/features/auth/totp-enrollment";
import { deviceCookieName, deviceCookieOptions } from "@/server/features/security/known-devices";
import { registerEndpoints } from "@/server/lib/endpoints";
import { keyedLimit, perIpLimit } from "@/server/lib/rate-limit";
import { sessionCookieName } from "@/server/lib/session";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * The second step of sign-in, step-up proofs, and the authenticator's setup. Outside /api/admin on
 * purpose: an admin who must enrol a factor reaches these before the back office lets them in.
 */
export async function secondFactorRoutes(app: FastifyInstance) {
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
  // The signed-in ones' own limit (per address; per user in their contract).
  const perIp = () => perIpLimit(app, 30);

  registerEndpoints(app, SECOND_FACTOR_ENDPOINTS, {
    "POST /api/auth/login/verify": {
      preHandler: [perPendingLogin("login-verify", 10)],
      handler: async (request, reply) => {
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
    },
    "POST /api/auth/login/passkey-options": {
      preHandler: [perPendingLogin("login-passkey-options", 10)],
      handler: (request) => startLoginPasskey(deps, pendingToken(request)),
    },
    "POST /api/auth/step-up": {
      config: perIp(),
      handler: (request) =>
        stepUp(deps, signedInUser(request), request.session!, request.body.secondFactor, {
          deviceToken: request.cookies[deviceCookieName(deps.config)],
        }),
    },
    "POST /api/auth/step-up/passkey-options": {
      config: perIp(),
      handler: (request) => startStepUpPasskey(deps, signedInUser(request)),
    },
    "GET /api/auth/second-factor": (request) =>
      getSecondFactorStatus(deps.database.db, signedInUser(request).id),
    "POST /api/auth/totp/enroll": {
      config: perIp(),
      handler: (request) => enrollTotp(deps, signedInUser(request)),
    },
    "POST /api/auth/totp/confirm": {
      config: perIp(),
      handler: (request) => confirmTotp(deps, signedInUser(request), request.body),
    },
    "POST /api/auth/totp/disable": {
      config: perIp(),
      handler: (request) =>
        disableTotp(deps, signedInUser(request), request.body, {
          deviceToken: request.cookies[deviceCookieName(deps.config)],
        }),
    },
    "POST /api/auth/recovery-codes": {
      config: perIp(),
      handler: (request) => regenerateRecoveryCodes(deps, signedInUser(request)),
    },
  });
}
