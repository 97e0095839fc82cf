import { z } from "zod";
import { secondFactorProof } from "@/contract/security";

/** "Request money" from a $tag (issue 32 §4, decision 037). */
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
} as const;

/** Open requests one customer may have to the same $tag at once (spam). */
export const OPEN_REQUESTS_PER_PAYER = 3;
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
