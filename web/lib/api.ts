// Types only: the contracts build zod schemas, and no schema reaches the bundle (decision 075).
import type { EndpointInput, EndpointReason, EndpointReply, HttpMethod } from "@/contract/endpoint";
import type { ContractKey, Endpoints } from "@/contract/endpoints";
import type { ErrorReason } from "@/contract/error-reasons";
import { EVENTS_FROM_ATTRIBUTE, FIRST_READS_ELEMENT_ID, type FirstRead } from "@/contract/first-page";

const OWN_FIELDS = new Set(["status", "code", "reason", "flags", "message", "name", "stack", "cause"]);

/** An API failure as spec §8 describes it: the server's message plus every other field it sent (flags). */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  /** The server's domain reason (contract/error-reasons.ts): what the web branches on. */
  readonly reason?: ErrorReason;
  readonly flags: Record<string, unknown>;

  constructor(status: number, message: string, flags: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.flags = flags;
    if (typeof flags.code === "string") this.code = flags.code;
    // Flags are readable as fields too (error.lookalikeRecipientName), but never over the error's own: a body's
    // `status` detail (an approval's "approved") must not replace the HTTP status.
    for (const [key, value] of Object.entries(flags)) {
      if (!OWN_FIELDS.has(key)) Object.assign(this, { [key]: value });
    }
    // Read unchecked: the table stays out of the first chunk, and a reason this build does not know (a newer
    // server's) matches no case, so the caller's general case answers.
    if (typeof flags.reason === "string") this.reason = flags.reason as ErrorReason;
  }

  /** True when the body carried the named flag; branch on `reason` (reasonOf) instead. */
  hasFlag(name: string): boolean {
    return this.flags[name] === true;
  }
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * Spec §8's error body, `{ message, ...flags }` (flags include `code`), when the text is one: the one place the
 * web reads a failure's body. Undefined for anything else (an HTML proxy page, a storage service's XML).
 */
export function parseErrorBody(
  text: string,
): { message?: string; flags: Record<string, unknown> } | undefined {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const { message, ...flags } = parsed as Record<string, unknown>;
  return { message: typeof message === "string" ? message : undefined, flags };
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text();
  const body = parseErrorBody(text);
  if (body) throw new ApiError(res.status, body.message ?? res.statusText, body.flags);
  throw new ApiError(res.status, text || `${res.status}: ${res.statusText}`);
}

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The last body of each GET that came with an ETag. API responses are `no-store`, so the browser keeps
 * nothing itself: a poll sends the ETag back as If-None-Match and a 304 reuses this copy. Bounded, oldest
 * dropped first; the server's ETags carry the user, so another account's copy never validates.
 */
const conditionalCopies = new Map<string, { etag: string; body: unknown }>();
const CONDITIONAL_COPIES_MAX = 50;

function keepConditionalCopy(url: string, etag: string, body: unknown): void {
  conditionalCopies.delete(url);
  if (conditionalCopies.size >= CONDITIONAL_COPIES_MAX) {
    conditionalCopies.delete(conditionalCopies.keys().next().value!);
  }
  conditionalCopies.set(url, { etag, body });
}

/**
 * Drops the kept copies of these reads, so the next read of each is unconditional. A pushed notice says they
 * changed: another instance may not have heard of the change yet and could still vouch for the old ETag.
 */
export function forgetConditionalCopies(isStale: (url: string) => boolean): void {
  for (const url of [...conditionalCopies.keys()]) if (isStale(url)) conditionalCopies.delete(url);
}

/**
 * GETs the first page will make, started while the entry chunk is still evaluating (startEarlyGets): on a
 * phone's HTTP/1.1 connections they go out before the page's chunks queue up, and the page's first
 * apiRequest for each URL takes the answer instead of asking again. Unclaimed answers expire. What the
 * server answered inside the HTML (server/lib/spa.ts) is not asked: it seeds the query cache instead.
 */
const earlyGets = new Map<string, { response: Promise<Response>; at: number }>();
const EARLY_GET_MAX_AGE_MS = 10_000;

export function startEarlyGets(urls: readonly string[]): void {
  const answered = answersInPage();
  for (const url of urls) {
    // An answer in the page is in the query cache already (seedFirstReads): nothing to ask.
    if (earlyGets.has(url) || answered[url]) continue;
    const response = fetch(url, { credentials: "include" });
    // A stale "signed in" hint: the session is gone, so none of the early answers may be handed to the page a
    // person then signs in to. A network failure is reported to the apiRequest that claims it.
    response.then(
      (res) => {
        if (res.status === 401) earlyGets.clear();
      },
      () => {},
    );
    earlyGets.set(url, { response, at: Date.now() });
  }
}

let pageAnswers: Record<string, FirstRead> | undefined;

let eventsFromInPage: string | undefined;

/**
 * The customer's notice number the page's answers were read after (server/lib/spa.ts), once: the tab's first
 * event stream starts from it, and any later one must not.
 */
export function takeEventsFromInPage(): string | undefined {
  answersInPage();
  const from = eventsFromInPage;
  eventsFromInPage = undefined;
  return from;
}

/**
 * The answers the server put in the page (server/lib/spa.ts), read from the element once and kept: the query
 * client is seeded with them before the first render (seedFirstReads) and the early GETs skip them. Their
 * ETags are kept, so the next read of each URL is conditional.
 */
export function answersInPage(): Record<string, FirstRead> {
  if (pageAnswers) return pageAnswers;
  pageAnswers = {};
  const element = typeof document === "undefined" ? null : document.getElementById(FIRST_READS_ELEMENT_ID);
  if (!element) return pageAnswers;
  eventsFromInPage = element.getAttribute(EVENTS_FROM_ATTRIBUTE) ?? undefined;
  element.remove();
  try {
    const parsed: unknown = JSON.parse(element.textContent ?? "");
    if (parsed && typeof parsed === "object") pageAnswers = parsed as Record<string, FirstRead>;
  } catch {
    // a page without usable answers asks as usual
  }
  for (const [url, { body, etag }] of Object.entries(pageAnswers)) {
    if (etag) keepConditionalCopy(url, etag, body);
  }
  return pageAnswers;
}

/**
 * URL → when its page answer was put in the query cache (web/lib/query-client.ts seedFirstReads). Per page
 * in the browser; on the server, shared by its renders, it holds URLs and times only, never data.
 */
export const PAGE_ANSWER_TIMES = new Map<string, number>();
/** How long a page answer counts as fresh for a read that asks again whenever a screen showing it mounts. */
const PAGE_ANSWER_FRESH_MS = 10_000;

/**
 * `refetchOnMount` for such a read (key: its URL): asks again, except while its data is still the page's
 * own answer and a few seconds old, which the server read for this very load.
 */
export function refetchOnMountUnlessFromPage(refetch: true | "always") {
  return (query: { queryKey: readonly unknown[]; state: { dataUpdatedAt: number } }): boolean | "always" => {
    const seededAt = PAGE_ANSWER_TIMES.get(String(query.queryKey[0]));
    const isPageAnswer =
      seededAt !== undefined &&
      query.state.dataUpdatedAt === seededAt &&
      Date.now() - seededAt < PAGE_ANSWER_FRESH_MS;
    return isPageAnswer ? false : refetch;
  };
}

function claimEarlyGet(url: string): Promise<Response> | undefined {
  const early = earlyGets.get(url);
  if (!early) return undefined;
  earlyGets.delete(url);
  return Date.now() - early.at < EARLY_GET_MAX_AGE_MS ? early.response : undefined;
}

/** Every call sends cookies; a JSON content type only when there is a body on POST, PUT or PATCH (spec §7). */
export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const upper = method.toUpperCase();
  const hasBody = body !== undefined && BODY_METHODS.has(upper);
  const copy = upper === "GET" ? conditionalCopies.get(url) : undefined;
  const early = upper === "GET" && !copy && !options.headers ? claimEarlyGet(url) : undefined;
  const res = early
    ? await early
    : await fetch(url, {
        method: upper,
        credentials: "include",
        headers: {
          ...(hasBody ? { "Content-Type": "application/json" } : {}),
          ...(copy ? { "If-None-Match": copy.etag } : {}),
          ...options.headers,
        },
        body: hasBody ? JSON.stringify(body) : undefined,
        signal: options.signal,
      });
  if (res.status === 304 && copy) return copy.body as T;
  await throwIfNotOk(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  const parsed = (type.includes("application/json") ? await res.json() : await res.text()) as T;
  const etag = res.headers.get("etag");
  if (upper === "GET" && etag) keepConditionalCopy(url, etag, parsed);
  return parsed;
}

/** The server's reason for a failure, for a `switch`; undefined for anything else (a network error, a 500). */
export function reasonOf(error: unknown): ErrorReason | undefined {
  return error instanceof ApiError ? error.reason : undefined;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export type { ContractKey };
export type InputOf<K extends ContractKey> = EndpointInput<Endpoints[K]>;
export type ReplyOf<K extends ContractKey> = EndpointReply<Endpoints[K]>;
/** The reasons a call of K can fail with (its contract's, and those its access, step-up and key imply). */
export type ReasonOf<K extends ContractKey> = EndpointReason<Endpoints[K]>;

/**
 * A failure of K's call by its reason, typed by K's contract, so a `switch` over it can be exhaustive (end it
 * with `default: return unhandledReason(reason, fallback)`). Undefined for a failure without a reason or not from the API.
 */
export function failureOf<K extends ContractKey>(_key: K, error: unknown): ReasonOf<K> | undefined {
  return reasonOf(error) as ReasonOf<K> | undefined;
}

/**
 * A switch's default over failureOf: compiles only when every reason of the contract has its case. At run time a
 * reason this build does not know (a newer server's) lands here and gets `fallback`, the general failure's answer.
 */
export function unhandledReason<T>(reason: never, fallback: T): T {
  void reason;
  return fallback;
}

type Query = Record<string, string | number | boolean | null | undefined>;

/**
 * The URL of an endpoint by its contract key (`GET /api/x/:id`): its `:name` parameters filled in (encoded) and
 * its query appended, empty values left out. For links (a PDF, a CSV) and query keys.
 */
export function hrefOf<K extends ContractKey>(key: K, input: InputOf<K>): string {
  const { params, query } = input as { params?: Record<string, string | number>; query?: Query };
  const path = key
    .slice(key.indexOf(" ") + 1)
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value != null && value !== "") search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Calls an endpoint by its contract key: the parameters, query and body are typed by its schemas, the answer by
 * its success schema. A failure throws ApiError, whose `reason` the caller switches on.
 */
export function callEndpoint<K extends ContractKey>(
  key: K,
  ...[input, options]: Record<never, never> extends InputOf<K>
    ? [input?: InputOf<K>, options?: RequestOptions]
    : [input: InputOf<K>, options?: RequestOptions]
): Promise<ReplyOf<K>> {
  const given = (input ?? {}) as InputOf<K> & { body?: unknown };
  return apiRequest<ReplyOf<K>>(
    key.slice(0, key.indexOf(" ")) as HttpMethod,
    hrefOf(key, given),
    given.body,
    options,
  );
}
