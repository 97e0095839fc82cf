import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { AppError } from "@/server/lib/errors";
import {
  findSessionUser,
  type SessionRef,
  type SessionUser,
  sessionCookieName,
  sessionCookieOptions,
} from "@/server/lib/session";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in, verified user; null when signed out. */
    user: SessionUser | null;
    session: SessionRef | null;
  }
  interface FastifyReply {
    setSessionCookie(token: string): FastifyReply;
    clearSessionCookie(): FastifyReply;
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

    app.decorateRequest("user", null);
    app.decorateRequest("session", null);
    app.decorateReply("setSessionCookie", function (this: FastifyReply, token: string) {
      return this.setCookie(cookieName, token, cookieOptions);
    });
    app.decorateReply("clearSessionCookie", function (this: FastifyReply) {
      const { maxAge: _maxAge, ...rest } = cookieOptions;
      return this.clearCookie(cookieName, rest);
    });

    app.addHook("onRequest", async (request) => {
      if (!SESSION_PREFIXES.some((p) => request.url.startsWith(p))) return;
      const token = request.cookies[cookieName];
      if (!token) return;
      const found = await findSessionUser(database.db, token);
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

/** preHandler for /api/admin/*: 401 when signed out, 403 for a signed-in non-admin. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
  if (!request.user.isAdmin) throw new AppError("FORBIDDEN", AUTH_SERVER_MESSAGES.forbidden);
}

/** For handlers behind requireUser: the user, typed as present. */
export function signedInUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
  return request.user;
}
