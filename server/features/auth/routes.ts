import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  changePasswordInput,
  currentUser,
  emailOnlyInput,
  loginInput,
  messageResponse,
  registerInput,
  registerResponse,
  resetPasswordInput,
  sendCodeResponse,
  sessionIdParams,
  sessionList,
  updatePhoneInput,
  updatePhoneResponse,
  verifyEmailInput,
} from "@/contract/auth";
import { redirect } from "@/contract/media";
import { loginResult } from "@/contract/security";
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
import { requireFreshStepUp } from "@/server/features/auth/step-up";
import { updatePhone } from "@/server/features/auth/update-phone";
import { normaliseEmail, toCurrentUser } from "@/server/features/auth/users";
import { resendVerification, verifyEmail } from "@/server/features/auth/verify-email";
import {
  deviceCookieName,
  deviceCookieOptions,
  findKnownDeviceHash,
} from "@/server/features/security/known-devices";
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
  const perUser = (name: string, max: number) =>
    keyedLimit(app, { name, max, key: (request) => request.user?.id ?? null });

  app.post(
    "/auth/register",
    { schema: { body: registerInput, response: { 200: registerResponse } }, config: perIpLimit(app, 10) },
    (request) => registerUser(deps, request.body),
  );

  app.post(
    "/auth/verify-email",
    { schema: { body: verifyEmailInput, response: { 200: messageResponse } }, config: perIpLimit(app, 20) },
    (request) => verifyEmail(deps, request.body),
  );

  app.post(
    "/auth/resend-verification",
    { schema: { body: emailOnlyInput, response: { 200: messageResponse } }, config: perIpLimit(app, 5) },
    (request) => resendVerification(deps, request.body),
  );

  app.post(
    "/auth/login",
    {
      schema: { body: loginInput, response: { 200: loginResult } },
      config: perIpLimit(app, 10),
      // Per account, but a browser that signed in to this account before counts on its own: failures from
      // elsewhere cannot lock the owner out. Decided on the server only; every answer stays the same.
      preHandler: keyedLimit(app, {
        name: "login",
        max: 10,
        key: async (request) => {
          const email = bodyEmail(request);
          if (email === null) return null;
          const known = await findKnownDeviceHash(deps.database.db, email, request.cookies[deviceCookie]);
          return known ? `known-device:${known}` : `email:${email}`;
        },
      }),
    },
    async (request, reply) => {
      const { token, pendingToken, deviceToken, ...result } = await login(deps, request.body, {
        userAgent: request.headers["user-agent"],
        ip: request.ip,
        previousToken: request.cookies[cookieName],
        deviceToken: request.cookies[deviceCookie],
      });
      // With a second factor on, no session yet: only the five-minute pending-login cookie.
      if (pendingToken) reply.setCookie(pendingCookie, pendingToken, pendingLoginCookieOptions(deps.config));
      else {
        reply.setSessionCookie(token!);
        reply.setCookie(deviceCookie, deviceToken!, deviceCookieOptions(deps.config));
      }
      return result;
    },
  );

  app.post(
    "/auth/forgot-password",
    {
      schema: { body: emailOnlyInput, response: { 200: messageResponse } },
      config: perIpLimit(app, 5),
      preHandler: keyedLimit(app, { name: "forgot-email", max: 5, key: bodyEmail }),
    },
    async (request) =>
      requestPasswordReset(deps, request.body, (error) =>
        request.log.error({ err: error }, "password reset request failed after the answer"),
      ),
  );

  app.post(
    "/auth/reset-password",
    { schema: { body: resetPasswordInput, response: { 200: messageResponse } }, config: perIpLimit(app, 10) },
    async (request, reply) => {
      const result = await resetPassword(deps, request.body);
      // Every session of the account just ended, possibly including this browser's.
      if (request.cookies[cookieName]) reply.clearSessionCookie();
      return result;
    },
  );

  app.post(
    "/auth/send-password-otp",
    {
      schema: { response: { 200: sendCodeResponse } },
      config: perIpLimit(app, 5),
      preHandler: [requireUser, perUser("password-otp", 5)],
    },
    (request) => sendPasswordChangeCode(deps, signedInUser(request)),
  );

  app.post(
    "/auth/change-password",
    {
      schema: { body: changePasswordInput, response: { 200: messageResponse } },
      config: perIpLimit(app, 10),
      preValidation: requireUser,
      preHandler: [perUser("change-password", 10), requireFreshStepUp],
    },
    (request) => changePassword(deps, signedInUser(request), request.session!, request.body),
  );

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

  app.put(
    "/user/phone",
    {
      schema: { body: updatePhoneInput, response: { 200: updatePhoneResponse } },
      preValidation: requireUser,
    },
    (request) => updatePhone(deps.database.db, signedInUser(request).id, request.body.phoneNumber),
  );

  app.get(
    "/auth/sessions",
    { schema: { response: { 200: sessionList } }, preHandler: requireUser },
    (request) => findUserSessions(deps.database.db, signedInUser(request).id, request.session!),
  );

  app.delete(
    "/auth/sessions/:id",
    { schema: { params: sessionIdParams, response: { 200: messageResponse } }, preValidation: requireUser },
    async (request, reply) => {
      const { wasCurrent, message } = await deleteUserSession(
        deps.database.db,
        signedInUser(request).id,
        request.params.id,
        request.session!,
      );
      if (wasCurrent) reply.clearSessionCookie();
      return { message };
    },
  );

  app.delete(
    "/auth/sessions",
    { schema: { response: { 200: messageResponse } }, preHandler: requireUser },
    async (request) => {
      const { message } = await deleteOtherSessions(
        deps.database.db,
        signedInUser(request).id,
        request.session!,
      );
      return { message };
    },
  );
}
