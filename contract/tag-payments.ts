import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { MONEY_OUT_REASONS } from "@/contract/error-reasons";
import { secondFactorProof } from "@/contract/security";

export const TAG_PAY_MESSAGES = {
  /** The same words whether the tag does not exist, is not open or cannot be paid: no discovery by tag. */
  unavailable: "No one can be paid at this $tag. Check the tag and try again.",
  selfPayment: "You cannot pay your own $tag",
  paid: "Payment sent",
  underReview: "This payment can't be made right now. Please contact support.",
} as const;

/** GET /api/transfer/tag/:tag: the name shown back, masked, before the customer confirms. */
export const tagLookup = z.object({ tag: z.string(), name: z.string() });
export type TagLookup = z.infer<typeof tagLookup>;

export const tagParams = z.object({ tag: z.string().max(40) });

/** POST /api/transfer/tag-payments (an Idempotency-Key header is required). */
export const createTagPaymentInput = z.strictObject({
  tag: z.string({ error: "Enter a $tag" }).trim().min(1, "Enter a $tag").max(40),
  amount: z.union([z.number(), z.string().max(20)], { error: "Amount is required" }),
  note: z.string().trim().max(140, "A note can be at most 140 characters").optional(),
  secondFactor: secondFactorProof.optional(),
});
export type CreateTagPaymentInput = z.infer<typeof createTagPaymentInput>;

export const tagPayment = z.object({
  id: z.string(),
  amount: z.string(),
  amountCents: z.number().int(),
  toTag: z.string(),
  toName: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export const createTagPaymentResponse = z.object({ message: z.string(), payment: tagPayment });
export type CreateTagPaymentResponse = z.infer<typeof createTagPaymentResponse>;

/** What a payment by $tag (or of a money request) can be refused for: the payer, the payee, the limits, the proof. */
export const TAG_PAYMENT_REFUSALS = [
  "VALIDATION",
  "CONFLICT",
  "tag_unavailable",
  "self_payment",
  "compliance_hold",
  ...MONEY_OUT_REASONS,
] as const;

/**
 * Paying another customer by $tag (decision 035). Lookups are counted per customer, so tags cannot be enumerated
 * quickly; every miss answers the same 404. A payment carries an Idempotency-Key; its proof and creation limits
 * are the server's own (shared with the transfer).
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const TAG_PAYMENT_ENDPOINTS = /* @__PURE__ */ endpoints({
  "GET /api/transfer/tag/:tag": {
    access: "user",
    params: tagParams,
    replies: { 200: tagLookup },
    errors: ["staff_account", "account_frozen", "setup_incomplete", "tag_unavailable", "self_payment"],
    limit: { perMinute: 30, by: "user", bucket: "tag-lookup" },
  },
  "POST /api/transfer/tag-payments": {
    access: "user",
    body: createTagPaymentInput,
    replies: { 201: createTagPaymentResponse },
    errors: ["RATE_LIMITED", ...TAG_PAYMENT_REFUSALS],
    idempotent: true,
  },
});
