import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AUTH_ENDPOINTS, currentUser } from "@/contract/auth";
import { redirect } from "@/contract/media";
import { LOGIN_ENDPOINTS } from "@/contract/security";
import { SIGNED_IN_HINT_COOKIE, SIGNED_OUT_PATH } from "@/contract/session-hint";
import { changePassword, sendPasswordChangeCode } from "@/server/features/auth/change-password";
import { login } from "@/server/features/auth/login";
import {
  pendingLoginCookieName,
  pendingLoginCookieOptions,
} from "@/server/features/auth/login-second-factor";
import { isForeignNavigation, LOGOUT_PAGE_CSP, logoutConfirmPage } from "@/server/features/auth/logout-page";
import { requestPasswordReset, resetPassword } from "@/server/features/auth/password-reset";
import { registerUser } from "@/server/features/auth/register-user";
import { getSecondFactorState } from "@/server/features/auth/second-factor";
import { deleteOtherSessions, deleteUserSession, findUserSessions } from "@/server/features/auth/sessions";
import { updatePhone } from "@/server/features/auth/update-phone";
import { normaliseEmail, toCurrentUser } from "@/server/features/auth/users";
import { resendVerification, verifyEmail } from "@/server/features/auth/verify-email";
import {
  deviceCookieName,
  deviceCookieOptions,
  findKnownDeviceHash,
} from "@/server/features/security/known-devices";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { keyedLimit, perIpLimit } from "@/server/lib/rate-limit";
import { deleteSessionByToken, sessionCookieName } from "@/server/lib/session";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

const bodyEmail = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? normaliseEmail(email) : null;
};

/** Sign-up, codes, login/logout, password reset and change, phone, and the user's sessions. */
export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const cookieName = sessionCookieName(deps.config);
  const pendingCookie = pendingLoginCookieName(deps.config);
  const deviceCookie = deviceCookieName(deps.config);

  registerEndpoints(app, AUTH_ENDPOINTS, {
    "POST /api/auth/register": (request) => registerUser(deps, request.body),
    "POST /api/auth/verify-email": (request) => verifyEmail(deps, request.body),
    "POST /api/auth/resend-verification": (request) => resendVerification(deps, request.body),
    "POST /api/auth/forgot-password": {
      preHandler: [keyedLimit(app, { name: "forgot-email", max: 5, key: bodyEmail })],
      handler: (request) =>
        requestPasswordReset(deps, request.body, (error) =>
          request.log.error({ err: error }, "password reset request failed after the answer"),
        ),
    },
    "POST /api/auth/reset-password": async (request, reply) => {
      const result = await resetPassword(deps, request.body);
      // Every session of the account just ended, possibly including this browser's.
      if (request.cookies[cookieName]) reply.clearSessionCookie();
      return result;
    },
    "POST /api/auth/send-password-otp": {
      config: perIpLimit(app, 5),
      handler: (request) => sendPasswordChangeCode(deps, signedInUser(request)),
    },
    "POST /api/auth/change-password": {
      config: perIpLimit(app, 10),
      handler: (request) => changePassword(deps, signedInUser(request), request.session!, request.body),
    },
    "PUT /api/user/phone": (request) =>
      updatePhone(deps.database.db, signedInUser(request).id, request.body.phoneNumber),
    "GET /api/auth/sessions": (request) =>
      findUserSessions(deps.database.db, signedInUser(request).id, request.session!),
    "DELETE /api/auth/sessions/:id": async (request, reply) => {
      const { wasCurrent, message } = await deleteUserSession(
        deps.database.db,
        signedInUser(request).id,
        request.params.id,
        request.session!,
      );
      if (wasCurrent) reply.clearSessionCookie();
      return { message };
    },
    "DELETE /api/auth/sessions": async (request) => {
      const { message } = await deleteOtherSessions(
        deps.database.db,
        signedInUser(request).id,
        request.session!,
      );
      return { message };
    },
  });

  registerEndpoints(app, LOGIN_ENDPOINTS, {
    "POST /api/auth/login": {
      // Per account, but a browser that signed in to this account before counts on its own: failures from
      // elsewhere cannot lock the owner out. Decided on the server only; every answer stays the same.
      preHandler: [
        keyedLimit(app, {
          name: "login",
          max: 10,
          key: async (request) => {
            const email = bodyEmail(request);
            if (email === null) return null;
            const known = await findKnownDeviceHash(deps.database.db, email, request.cookies[deviceCookie]);
            return known ? `known-device:${known}` : `email:${email}`;
          },
        }),
      ],
      handler: async (request, reply) => {
        const { token, pendingToken, deviceToken, ...result } = await login(deps, request.body, {
          userAgent: request.headers["user-agent"],
          ip: request.ip,
          previousToken: request.cookies[cookieName],
          deviceToken: request.cookies[deviceCookie],
        });
        // With a second factor on, no session yet: only the five-minute pending-login cookie.
        if (pendingToken)
          reply.setCookie(pendingCookie, pendingToken, pendingLoginCookieOptions(deps.config));
        else {
          reply.setSessionCookie(token!);
          reply.setCookie(deviceCookie, deviceToken!, deviceCookieOptions(deps.config));
        }
        return result;
      },
    },
  });

  app.get(
    "/auth/user",
    {
      schema: { response: { 200: currentUser } },
      // The web probes only while the hint cookie says "signed in"; a 401 here means the hint is stale.
      preHandler: async (request, reply) => {
        if (!request.user && request.cookies[SIGNED_IN_HINT_COOKIE]) reply.clearSignedInHint();
        await requireUser(request);
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const factors = await getSecondFactorState(deps.database.db, user.id);
      return toCurrentUser(user, factors.enabled);
    },
  );

  const signOut = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[cookieName];
    if (token) await deleteSessionByToken(deps.database.db, token);
    return reply.clearSessionCookie().redirect(SIGNED_OUT_PATH, 302);
  };
  // A link, so it works before the page's script has loaded; another site's link only gets a button (POST).
  app.get("/logout", { schema: { response: { 302: redirect } } }, async (request, typedReply) => {
    if (!isForeignNavigation(request)) return signOut(request, typedReply);
    // The page is HTML, outside the JSON contract of this route's schema.
    const reply: FastifyReply = typedReply;
    return reply
      .code(403)
      .header("content-security-policy", LOGOUT_PAGE_CSP)
      .type("text/html; charset=utf-8")
      .send(logoutConfirmPage());
  });
  // The confirm page's form: refused cross-site like every mutation. A form posts an empty urlencoded body,
  // accepted here only (its own scope) and only empty, so this opens no way for forms to post data.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, body, done) =>
        body === ""
          ? done(null, undefined)
          : done(new AppError("UNSUPPORTED_MEDIA_TYPE", "Sign out sends no form fields")),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post("/logout", { schema: { response: { 302: redirect } } }, signOut);
  });
}
