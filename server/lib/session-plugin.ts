import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { z } from "zod";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { SECURITY_MESSAGES } from "@/contract/security";
import { SIGNED_IN_HINT_COOKIE } from "@/contract/session-hint";
import { holdsAnyRole, normaliseRoles, STAFF_MESSAGES } from "@/contract/staff";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";
import { rolesForAdminRoute } from "@/server/lib/route-roles";
import {
  findSessionUser,
  forgetCachedSessions,
  type SessionRef,
  type SessionUser,
  sessionCookieName,
  sessionCookieOptions,
  signedInHintCookieOptions,
} from "@/server/lib/session";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route's SQL checks the session itself under its one call (active_session_user), so a session this
     * process cached a while ago serves it without a lookup (findSessionUser's checkedInSql).
     */
    sessionCheckedInSql?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in, verified user; null when signed out. */
    user: SessionUser | null;
    session: SessionRef | null;
  }
  interface FastifyReply {
    /** Sets the session cookie and its readable "signed in" hint. */
    setSessionCookie(token: string): FastifyReply;
    /** Clears the session cookie and its hint. */
    clearSessionCookie(): FastifyReply;
    /** Clears only the hint: the browser claimed a session the server does not know. */
    clearSignedInHint(): FastifyReply;
  }
}

// Static assets and SPA pages never need the user; skipping them keeps page loads free of session queries.
const SESSION_PREFIXES = ["/api/", "/objects/", "/dev/"];

/** Reads the session cookie on API requests and decorates request.user / request.session. */
export const sessionPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, database } = app.deps;
    const cookieName = sessionCookieName(config);
    const cookieOptions = sessionCookieOptions(config);
    const { maxAge: _hintMaxAge, ...hintClearOptions } = signedInHintCookieOptions(config);

    app.decorateRequest("user", null);
    app.decorateRequest("session", null);
    app.decorateReply("setSessionCookie", function (this: FastifyReply, token: string) {
      return this.setCookie(cookieName, token, cookieOptions).setCookie(
        SIGNED_IN_HINT_COOKIE,
        "1",
        signedInHintCookieOptions(config),
      );
    });
    app.decorateReply("clearSessionCookie", function (this: FastifyReply) {
      const { maxAge: _maxAge, ...rest } = cookieOptions;
      return this.clearCookie(cookieName, rest).clearCookie(SIGNED_IN_HINT_COOKIE, hintClearOptions);
    });
    app.decorateReply("clearSignedInHint", function (this: FastifyReply) {
      return this.clearCookie(SIGNED_IN_HINT_COOKIE, hintClearOptions);
    });

    app.addHook("onRequest", async (request) => {
      if (!SESSION_PREFIXES.some((p) => request.url.startsWith(p))) return;
      const token = request.cookies[cookieName];
      if (!token) return;
      const found = await findSessionUser(database.db, token, {
        checkedInSql: request.routeOptions.config?.sessionCheckedInSql === true,
      });
      if (found) {
        request.user = found.user;
        request.session = found.session;
      }
    });
  },
  { name: "pillar-session", dependencies: ["@fastify/cookie"] },
);

/** preHandler for signed-in routes: 401 JSON when there is no valid session. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
}

/**
 * The refusal for a session the database no longer counts (signed out on another instance, idle, expired) that a
 * function checking it under its call found: this instance's cache forgets it too, so the next request is signed
 * out at once instead of for up to SESSION_CACHE_MS.
 */
export function sessionEnded(session: SessionRef): AppError {
  forgetCachedSessions({ idHash: session.idHash }, { broadcast: false });
  return new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
}

/** Admins known to have a factor, for a few seconds: the back office polls, and each call need not re-ask. */
const ADMIN_FACTOR_CACHE_MS = 5_000;
const adminsWithFactor = new Map<string, number>();

/** Called when a factor is removed, so this instance stops trusting the cached answer at once. */
export function forgetAdminSecondFactor(userId: string): void {
  adminsWithFactor.delete(userId);
}

async function adminHasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const cachedAt = adminsWithFactor.get(userId);
  if (cachedAt !== undefined && Date.now() - cachedAt < ADMIN_FACTOR_CACHE_MS) return true;
  const [row] = await queryRows(
    db,
    sql`select has_second_factor(${userId}::uuid) as has_factor`,
    z.object({ has_factor: z.boolean() }),
  );
  const hasFactor = row?.has_factor === true;
  if (hasFactor) {
    if (adminsWithFactor.size > 1_000) adminsWithFactor.clear();
    adminsWithFactor.set(userId, Date.now());
  }
  return hasFactor;
}

/**
 * preHandler for /api/admin/*: 401 when signed out, 403 for a signed-in non-admin, with
 * ADMIN_REQUIRE_2FA 403 `secondFactorRequired` for staff who have not enrolled a second factor yet, and
 * 403 `roleRequired` when the route's row in ADMIN_ROUTE_ROLES does not name one of their roles. An unknown
 * admin path (no matched route) is left to the admin 404 handler.
 */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
  if (!request.user.isAdmin) throw new AppError("FORBIDDEN", AUTH_SERVER_MESSAGES.forbidden);
  const { config, database } = request.server.deps;
  if (config.adminRequire2fa && !(await adminHasSecondFactor(database.db, request.user.id))) {
    throw new AppError("admin_second_factor_required", SECURITY_MESSAGES.adminSecondFactorRequired);
  }
  const route = request.routeOptions.url;
  if (route === undefined) return;
  const allowed = rolesForAdminRoute(request.method, route) ?? [];
  if (!holdsAnyRole(request.user.staffRoles, allowed)) {
    throw new AppError("role_required", STAFF_MESSAGES.roleRequired, {
      allowedRoles: normaliseRoles([...allowed, "owner"]),
    });
  }
}

/** For handlers behind requireUser: the user, typed as present. */
export function signedInUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
  return request.user;
}
