import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import { AppError } from "@/server/lib/errors";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function isCrossSite(request: FastifyRequest): boolean {
  if (request.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = request.headers.origin;
  if (!origin || origin === "null") return origin === "null";
  try {
    const from = new URL(origin);
    // Normalise the Host header through URL so "localhost:80" and "http://localhost" compare equal.
    return from.host !== new URL(`${from.protocol}//${request.headers.host ?? ""}`).host;
  } catch {
    return true;
  }
}

function helmetOptions(secureCookies: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: secureCookies ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: secureCookies ? undefined : false,
  };
}

/**
 * The headers helmet sets, computed once: they depend on the options only (no nonces), and building helmet's
 * middleware per request (as @fastify/helmet does) cost a tenth of a dashboard poll's CPU.
 */
export function securityHeaders(secureCookies: boolean): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  helmet(helmetOptions(secureCookies))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

/**
 * The headers of an /api/ answer (JSON, or a CSV or PDF sent as an attachment), which a browser never renders
 * as a page of the app: OWASP's set for a REST API. Nothing may load or frame it (`default-src 'none'`, DENY),
 * no sniffing, no referrer, same-origin only, and the pages' HSTS (behind HTTPS). Helmet's page headers (the app's CSP,
 * COOP, Origin-Agent-Cluster, legacy IE and Flash switches) only matter to documents: sending them on every
 * poll was ~700 of a 304's ~900 header bytes.
 */
export function apiResponseHeaders(pageHeaders: [string, string][]): [string, string][] {
  const hsts = pageHeaders.filter(([name]) => name.toLowerCase() === "strict-transport-security");
  return [
    ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "no-referrer"],
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ...hsts,
  ];
}

/** Helmet headers with a CSP the built app satisfies (API answers get their own set), CSRF refusal of cross-site mutations, no-store on the API. */
export async function registerSecurity(app: FastifyInstance, { secureCookies }: { secureCookies: boolean }) {
  const pageHeaders = securityHeaders(secureCookies);
  const apiHeaders = apiResponseHeaders(pageHeaders);
  // Only JSON bodies are accepted, so a plain HTML form from another site cannot post to the API.
  app.removeContentTypeParser("text/plain");

  // One hook for both, as it runs on every request: the response's headers, then the cross-site refusal.
  app.addHook("onRequest", (request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of request.url.startsWith("/api/") ? apiHeaders : pageHeaders) {
      res.setHeader(name, value);
    }
    if (MUTATING.has(request.method) && isCrossSite(request)) {
      done(new AppError("FORBIDDEN", "Cross-site request refused"));
      return;
    }
    done();
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    if (request.url.startsWith("/api/") || request.url.startsWith("/objects/")) {
      reply.header("cache-control", "no-store");
    }
    done(null, payload);
  });
}
