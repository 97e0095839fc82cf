import type { z } from "zod";
import type { ErrorReason } from "@/contract/error-reasons";
import type { ErrorCode } from "@/contract/errors";
import type { StaffRole } from "@/contract/staff";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** `METHOD /path`, with Fastify's `:name` parameters: the key every table of routes uses. */
export type EndpointKey = `${HttpMethod} /${string}`;

/**
 * Who may call an endpoint: anyone, any signed-in user, or staff holding one of the listed roles (owners may call
 * every staff endpoint without being listed). Staff endpoints live under /api/admin.
 */
export type EndpointAccess = "public" | "user" | readonly StaffRole[];

/** A limit the registration applies: so many requests a minute per caller or per address (RATE_LIMIT_SCALE applies). */
export interface EndpointLimit {
  perMinute: number;
  by: "user" | "ip";
  /** Endpoints naming the same bucket share one count; by default each endpoint counts alone. */
  bucket?: string;
}

/** The success statuses an endpoint may answer with. */
export type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * One endpoint, declared once (decision 075): the server registers it from this (validation, access, limits,
 * step-up), the web's client is typed by it, OpenAPI documents it, and the abuse catalogue reads its access.
 */
export interface Endpoint {
  access: EndpointAccess;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Success answers by status. The registration sets the status when there is exactly one. */
  replies?: Partial<Record<SuccessStatus, z.ZodType>>;
  /** A file answer (a PDF, a CSV) instead of JSON: the web links to it rather than fetching it. */
  file?: "application/pdf" | "text/csv" | "text/plain" | "text/html" | "application/xml" | "application/json";
  /**
   * What its service can refuse with beyond what the endpoint itself implies (400 for a schema, 401/403 from the
   * access, the step-up and cross-site mutations, 413/415 for a JSON body, 429 for a limit): each domain reason
   * (contract/error-reasons.ts, lower case) and each code answered without one (upper case). The web's switch on
   * a call's failure is over these reasons.
   */
  errors?: readonly (ErrorReason | ErrorCode)[];
  /** The request carries an Idempotency-Key header; the same key and body answer once. */
  idempotent?: true;
  /** A fresh second factor (step-up within five minutes) is asked before the handler runs. */
  stepUp?: true;
  limit?: EndpointLimit;
}

export type EndpointTable = Readonly<Record<EndpointKey, Endpoint>>;

/**
 * Declares a table of endpoints, keeping every literal type the server and the web read from it. Free of side
 * effects, so a page that imports a message from a contract file leaves its tables (and their schemas) out.
 */
export /*#__NO_SIDE_EFFECTS__*/ function endpoints<const T extends Record<EndpointKey, Endpoint>>(
  table: T,
): T {
  return table;
}

/** `GET /api/x/:id` → ["GET", "/api/x/:id"]. */
export function splitEndpointKey(key: string): [HttpMethod, string] {
  const space = key.indexOf(" ");
  return [key.slice(0, space) as HttpMethod, key.slice(space + 1)];
}

/** Whether an endpoint is for staff (its access lists roles). */
export function isStaffAccess(access: EndpointAccess): access is readonly StaffRole[] {
  return typeof access !== "string";
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the handler reads once the schemas have parsed the request. */
export interface ParsedRequest<E extends Endpoint> {
  Body: Output<E["body"]>;
  Querystring: Output<E["query"]>;
  Params: Output<E["params"]>;
}

type Replies<E extends Endpoint> = NonNullable<E["replies"]>;

/** The JSON an endpoint answers with on success (the union over its success statuses). */
export type EndpointReply<E extends Endpoint> = E["file"] extends string
  ? string
  : Replies<E>[keyof Replies<E>] extends infer S
    ? S extends z.ZodType
      ? z.output<S>
      : undefined
    : never;

/** What a handler may return for the serializer: the input side of its success schemas. */
export type EndpointReplyInput<E extends Endpoint> = Replies<E>[keyof Replies<E>] extends infer S
  ? S extends z.ZodType
    ? z.input<S>
    : undefined
  : never;

type Part<Name extends string, S> = S extends z.ZodType
  ? undefined extends z.input<S>
    ? { [K in Name]?: z.input<S> }
    : { [K in Name]: z.input<S> }
  : { [K in Name]?: never };

/** What a caller sends: path parameters, query and body, each required when the endpoint's schema requires it. */
export type EndpointInput<E extends Endpoint> = Part<"params", E["params"]> &
  Part<"query", E["query"]> &
  Part<"body", E["body"]>;

export type { Input as SchemaInput, Output as SchemaOutput };

type Declared<E extends Endpoint> = Extract<NonNullable<E["errors"]>[number], ErrorReason>;

/**
 * Every reason a call of the endpoint can fail with: those its contract declares, and those its access, step-up
 * and idempotency imply. The web's switch over a failure is exhaustive over this union.
 */
export type EndpointReason<E extends Endpoint> =
  | Declared<E>
  | (E["access"] extends readonly StaffRole[] ? Implied<"staff"> : never)
  | (E["stepUp"] extends true ? Implied<"stepUp"> : never)
  | (E["idempotent"] extends true ? Implied<"idempotent"> : never)
  | Implied<"always">;

/**
 * The reasons an endpoint's shape implies, written once for the type above (the web's exhaustive switches) and
 * reasonsOf below (the abuse suite's check of every refusal): staff access (the role and the staff second
 * factor), a fresh step-up, an Idempotency-Key, and the database's 503 that any call can meet.
 */
const IMPLIED = {
  staff: ["role_required", "admin_second_factor_required"],
  stepUp: ["step_up_required"],
  idempotent: ["idempotency_key_required"],
  always: ["service_unavailable"],
} as const satisfies Record<string, readonly ErrorReason[]>;
type Implied<K extends keyof typeof IMPLIED> = (typeof IMPLIED)[K][number];

/** EndpointReason at run time: what the endpoint declares and what its access, step-up and key imply. */
export function reasonsOf(endpoint: Endpoint): ReadonlySet<string> {
  return new Set<string>([
    ...(endpoint.errors ?? []),
    ...(isStaffAccess(endpoint.access) ? IMPLIED.staff : []),
    ...(endpoint.stepUp ? IMPLIED.stepUp : []),
    ...(endpoint.idempotent ? IMPLIED.idempotent : []),
    ...IMPLIED.always,
  ]);
}
