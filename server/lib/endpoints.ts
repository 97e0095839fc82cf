import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
} from "fastify";
import {
  type Endpoint,
  type EndpointReplyInput,
  type EndpointTable,
  isStaffAccess,
  type ParsedRequest,
  splitEndpointKey,
} from "@/contract/endpoint";
import { csvDownload, pdfDownload } from "@/contract/media";
import { keyedLimit, perIpLimit } from "@/server/lib/rate-limit";
import { requireAdmin, requireUser } from "@/server/lib/session-plugin";

/** The request a handler gets: body, query and params already parsed by the endpoint's schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<ParsedRequest<E>>;

type Answer<E extends Endpoint> = EndpointReplyInput<E> | FastifyReply | undefined;

export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Answer<E> | Promise<Answer<E>>;

/** A handler with what only the server knows: a custom limit or check to run first, route config flags. */
export interface EndpointImplementation<E extends Endpoint> {
  handler: EndpointHandler<E>;
  /** Run after the endpoint's own access, limit and step-up checks, in order. */
  preHandler?: preHandlerHookHandler[];
  config?: Record<string, unknown>;
  /** A body limit other than the server's default. */
  bodyLimit?: number;
}

export type EndpointHandlers<T extends EndpointTable> = {
  [K in keyof T]: T[K] extends Endpoint ? EndpointHandler<T[K]> | EndpointImplementation<T[K]> : never;
};

/** What the registration needs from outside the ground floor: the step-up check lives in the auth area. */
export interface EndpointChecks {
  requireFreshStepUp: preHandlerHookHandler;
}

declare module "fastify" {
  interface FastifyInstance {
    endpointChecks: EndpointChecks;
  }
}

/** How OpenAPI describes a file answer (contract/media.ts); Fastify never serialises a stream or a buffer. */
const FILE_ANSWERS: Partial<Record<NonNullable<Endpoint["file"]>, unknown>> = {
  "application/pdf": pdfDownload,
  "text/csv": csvDownload,
};

const ACCESS_HOOK: Record<"user" | "staff", onRequestHookHandler> = {
  user: requireUser as onRequestHookHandler,
  staff: requireAdmin as onRequestHookHandler,
};

/**
 * Registers `endpoints` in this plugin (whose prefix each path starts with) from their contract: the schemas
 * validate the request and serialise the answer, the access runs before the body is read, then the limit and the
 * step-up, then the handler's own checks. A single success status is set before the handler runs.
 */
export function registerEndpoints<const T extends EndpointTable>(
  app: FastifyInstance,
  table: T,
  handlers: EndpointHandlers<T>,
): void {
  const buckets = new Map<string, preHandlerHookHandler>();
  for (const key of Object.keys(table) as (keyof T & string)[]) {
    const endpoint = table[key] as Endpoint;
    const given = handlers[key] as EndpointHandler<Endpoint> | EndpointImplementation<Endpoint>;
    const implementation = typeof given === "function" ? { handler: given } : given;
    const [method, path] = splitEndpointKey(key);
    if (!path.startsWith(app.prefix)) throw new Error(`${key} is outside this plugin's prefix ${app.prefix}`);
    const url = path.slice(app.prefix.length) || "/";

    const preHandler: preHandlerHookHandler[] = [];
    let config: Record<string, unknown> = { ...implementation.config };
    const limit = endpoint.limit;
    if (limit?.by === "user") {
      const bucket = limit.bucket ?? key;
      let check = buckets.get(bucket);
      if (!check) {
        check = keyedLimit(app, {
          name: bucket,
          max: limit.perMinute,
          key: (request) => request.user?.id ?? null,
        }) as preHandlerHookHandler;
        buckets.set(bucket, check);
      }
      preHandler.push(check);
    } else if (limit?.by === "ip") {
      config = { ...config, ...perIpLimit(app, limit.perMinute) };
    }
    if (endpoint.stepUp) preHandler.push(app.endpointChecks.requireFreshStepUp);
    preHandler.push(...(implementation.preHandler ?? []));

    const successes = Object.keys(endpoint.replies ?? {}).map(Number);
    const status = successes.length === 1 ? successes[0] : undefined;
    const onRequest =
      endpoint.access === "public" ? [] : [ACCESS_HOOK[isStaffAccess(endpoint.access) ? "staff" : "user"]];
    const handler = implementation.handler as (request: FastifyRequest, reply: FastifyReply) => unknown;

    app.route({
      method,
      url,
      schema: {
        ...(endpoint.params ? { params: endpoint.params } : {}),
        ...(endpoint.query ? { querystring: endpoint.query } : {}),
        ...(endpoint.body ? { body: endpoint.body } : {}),
        ...(endpoint.replies ? { response: endpoint.replies } : {}),
        ...(endpoint.file && FILE_ANSWERS[endpoint.file]
          ? { response: { 200: FILE_ANSWERS[endpoint.file] } }
          : {}),
      },
      onRequest,
      preHandler,
      config,
      ...(implementation.bodyLimit ? { bodyLimit: implementation.bodyLimit } : {}),
      handler:
        status === undefined
          ? handler
          : (request, reply) => {
              reply.code(status);
              return handler(request, reply);
            },
    });
  }
}
