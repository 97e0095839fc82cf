import { z } from "zod";
import { BRAND } from "@/contract/brand";
import { endpoints } from "@/contract/endpoint";
import { secondFactorProof } from "@/contract/security";
import { createTagPaymentResponse, TAG_PAYMENT_REFUSALS } from "@/contract/tag-payments";

/** "Request money" from a $tag (decision 037). */
export const MONEY_REQUEST_MESSAGES = {
  created: "Request sent",
  selfRequest: "You cannot request money from your own $tag",
  /** The requester's own account must be able to receive the payment. */
  cannotReceive: "Open your account before requesting money",
  tooLarge: "A request can be at most $2,000.00, the daily sending limit",
  tooManyOpen: (limit: number) =>
    `You already have ${limit} open requests to this $tag. Wait for an answer or cancel one first.`,
  closed: {
    paid: "This request has already been paid",
    declined: "This request was declined",
    cancelled: "This request was cancelled",
  },
  declined: "Request declined",
  cancelled: "Request cancelled",
  notFound: "Request not found",
  dailyCap: (limit: number) =>
    `You can send at most ${limit} requests a day to the same $tag. Try again tomorrow.`,
  blocked: (tag: string) => `${tag} can no longer send you requests`,
  unblocked: (tag: string) => `${tag} can send you requests again`,
  blockNotFound: "Blocked requester not found",
} as const;

/**
 * What the bank's own e-mail and notifications say of a request's note, instead of the note (decision 037): the
 * note is the requester's words and is shown only inside the app, beside the request.
 */
export const MONEY_REQUEST_NOTE_HINT = `with a note — open ${BRAND.name} to read it`;

/** Open requests one customer may have to the same $tag at once (spam). */
export const OPEN_REQUESTS_PER_PAYER = 3;
/**
 * Requests one customer may send to the same $tag per New York day, whatever became of them (decision 037):
 * the open cap alone let a requester cancel and ask again all day.
 */
export const REQUESTS_PER_PAYER_PER_DAY = 3;
export const REQUEST_BLOCKS_PAGE_SIZE = 20;
export const MONEY_REQUESTS_PAGE_SIZE = 20;

export const MONEY_REQUEST_STATUSES = ["open", "paid", "declined", "cancelled"] as const;
export type MoneyRequestStatus = (typeof MONEY_REQUEST_STATUSES)[number];

/** Spec-style labels for the status badge. */
export const MONEY_REQUEST_STATUS_LABELS: Record<MoneyRequestStatus, string> = {
  open: "Waiting",
  paid: "Paid",
  declined: "Declined",
  cancelled: "Cancelled",
};

/** POST /api/transfer/requests. */
export const createMoneyRequestInput = z.strictObject({
  tag: z.string({ error: "Enter a $tag" }).trim().min(1, "Enter a $tag").max(40),
  amount: z.union([z.number(), z.string().max(20)], { error: "Amount is required" }),
  note: z.string().trim().max(140, "A note can be at most 140 characters").optional(),
});
export type CreateMoneyRequestInput = z.infer<typeof createMoneyRequestInput>;

/** POST /api/transfer/requests/:id/pay (an Idempotency-Key header is required); the second factor as for a tag payment. */
export const payMoneyRequestInput = z.strictObject({ secondFactor: secondFactorProof.optional() }).optional();
export type PayMoneyRequestInput = z.infer<typeof payMoneyRequestInput>;

export const moneyRequestParams = z.object({ id: z.uuid({ error: "Request not found" }) });

export const moneyRequest = z.object({
  id: z.string(),
  /** incoming: they ask you to pay; outgoing: you asked them. */
  direction: z.enum(["incoming", "outgoing"]),
  /** The other party's $tag and masked name. */
  otherTag: z.string(),
  otherName: z.string(),
  amount: z.string(),
  amountCents: z.number().int(),
  note: z.string().nullable(),
  status: z.enum(MONEY_REQUEST_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type MoneyRequest = z.infer<typeof moneyRequest>;

export const moneyRequestsQuery = z.object({
  direction: z.enum(["incoming", "outgoing"]).default("incoming"),
  /** The keyset cursor from the previous page. */
  before: z.string().max(200).optional(),
});
export const moneyRequestPage = z.object({
  requests: z.array(moneyRequest),
  nextCursor: z.string().nullable(),
});
export type MoneyRequestPage = z.infer<typeof moneyRequestPage>;

export const moneyRequestAnswer = z.object({ message: z.string(), request: moneyRequest });
export type MoneyRequestAnswer = z.infer<typeof moneyRequestAnswer>;

/** A requester the customer blocked from sending them requests (decision 037). */
export const requestBlock = z.object({
  id: z.string(),
  /** The requester's $tag when blocked, and their masked name. */
  tag: z.string(),
  name: z.string(),
  createdAt: z.string(),
});
export type RequestBlock = z.infer<typeof requestBlock>;

/** GET /api/transfer/request-blocks: newest first, by keyset. */
export const requestBlocksQuery = z.object({ before: z.string().max(200).optional() });
export const requestBlockPage = z.object({
  blocks: z.array(requestBlock),
  nextCursor: z.string().nullable(),
});
export type RequestBlockPage = z.infer<typeof requestBlockPage>;

/** POST /api/transfer/requests/:id/block and DELETE /api/transfer/request-blocks/:id. */
export const requestBlockAnswer = z.object({ message: z.string(), block: requestBlock });
export type RequestBlockAnswer = z.infer<typeof requestBlockAnswer>;
export const requestBlockParams = z.object({ id: z.uuid({ error: "Blocked requester not found" }) });

/**
 * "Request money" from a $tag and blocking a requester (decision 037). Asking is counted per
 * customer per minute here and per day by the server; paying is a tag payment, with its Idempotency-Key and the
 * server's proof and creation limits. Another customer's request, staff's and a bad id are the same 404.
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const MONEY_REQUEST_ENDPOINTS = /* @__PURE__ */ endpoints({
  "POST /api/transfer/requests": {
    access: "user",
    body: createMoneyRequestInput,
    replies: { 201: moneyRequestAnswer },
    errors: [
      "VALIDATION",
      "CONFLICT",
      "RATE_LIMITED",
      "staff_account",
      "account_frozen",
      "account_closed",
      "setup_incomplete",
      "tag_unavailable",
      "self_payment",
      "too_many_money_requests",
      "money_request_daily_cap",
    ],
    limit: { perMinute: 5, by: "user", bucket: "money-request-minute" },
  },
  "GET /api/transfer/requests": {
    access: "user",
    query: moneyRequestsQuery,
    replies: { 200: moneyRequestPage },
    errors: ["VALIDATION", "staff_account"],
  },
  "POST /api/transfer/requests/:id/pay": {
    access: "user",
    params: moneyRequestParams,
    body: payMoneyRequestInput,
    replies: { 201: createTagPaymentResponse },
    errors: ["RATE_LIMITED", "NOT_FOUND", "money_request_closed", ...TAG_PAYMENT_REFUSALS],
    idempotent: true,
  },
  "POST /api/transfer/requests/:id/decline": {
    access: "user",
    params: moneyRequestParams,
    replies: { 200: moneyRequestAnswer },
    errors: ["NOT_FOUND", "money_request_closed"],
  },
  "POST /api/transfer/requests/:id/cancel": {
    access: "user",
    params: moneyRequestParams,
    replies: { 200: moneyRequestAnswer },
    errors: ["NOT_FOUND", "money_request_closed"],
  },
  // The requester is never told they were blocked.
  "POST /api/transfer/requests/:id/block": {
    access: "user",
    params: moneyRequestParams,
    replies: { 200: requestBlockAnswer },
    errors: ["NOT_FOUND"],
    limit: { perMinute: 20, by: "user", bucket: "money-request-block" },
  },
  "GET /api/transfer/request-blocks": {
    access: "user",
    query: requestBlocksQuery,
    replies: { 200: requestBlockPage },
    errors: ["VALIDATION", "staff_account"],
  },
  "DELETE /api/transfer/request-blocks/:id": {
    access: "user",
    params: requestBlockParams,
    replies: { 200: requestBlockAnswer },
    errors: ["NOT_FOUND"],
    limit: { perMinute: 20, by: "user", bucket: "money-request-block" },
  },
});
