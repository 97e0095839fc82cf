import { z } from "zod";
import { messageResponse } from "@/contract/auth";
import { endpoints } from "@/contract/endpoint";
import { refineNameCharacters } from "@/contract/person-name";
import { isUsdcAddress, TRANSFER_MESSAGES } from "@/contract/transfers";

/** Saved recipients one customer may keep: enough for anyone's real payees, and it bounds the unpaged list. */
export const RECIPIENT_LIMIT = 100;
export const RECIPIENT_NAME_MAX = 60;

export const RECIPIENT_MESSAGES = {
  nameRequired: "Enter a name for this recipient",
  nameTooLong: `Name must be at most ${RECIPIENT_NAME_MAX} characters`,
  nameInvalid: "Name must not contain control characters",
  addressRequired: "USDC wallet address is required",
  duplicate: "This address is already in your saved recipients",
  limit: `You can save at most ${RECIPIENT_LIMIT} recipients. Remove one to add another.`,
  notFound: "Recipient not found",
  adminCannotSave: "Saved recipients are for customers sending money",
  saved: "Recipient saved",
  renamed: "Recipient renamed",
  removed: "Recipient removed",
  firstPayment: "First payment to this address — check it with the recipient before you send.",
  lookalike: (name: string) =>
    `This address is not the one saved for ${name}, but it starts and ends with the same characters. Scammers plant lookalike addresses in your history: compare every character with ${name} before you send.`,
  lookalikeRefused: (name: string) =>
    `This address looks like the one saved for ${name} but is different. Confirm that you checked it to send.`,
} as const;

// C0 controls and DEL: a NUL cannot be stored by PostgreSQL, the rest only ever spoof how a name reads.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const recipientName = z
  .string({ error: RECIPIENT_MESSAGES.nameRequired })
  .trim()
  .min(1, RECIPIENT_MESSAGES.nameRequired)
  .max(RECIPIENT_NAME_MAX, RECIPIENT_MESSAGES.nameTooLong)
  .refine((name) => !CONTROL_CHARACTERS.test(name), RECIPIENT_MESSAGES.nameInvalid)
  .superRefine(refineNameCharacters);

/** The transfer form's rule: 0x + 40 hex characters, or a Solana address. */
export const recipientAddress = z
  .string({ error: RECIPIENT_MESSAGES.addressRequired })
  .trim()
  .min(1, RECIPIENT_MESSAGES.addressRequired)
  .max(100, TRANSFER_MESSAGES.addressInvalid)
  .refine(isUsdcAddress, TRANSFER_MESSAGES.addressInvalid);

export const createRecipientInput = z.object({ name: recipientName, address: recipientAddress });
export type CreateRecipientInput = z.infer<typeof createRecipientInput>;

export const renameRecipientInput = z.object({ name: recipientName });
export type RenameRecipientInput = z.infer<typeof renameRecipientInput>;

// Any string: a malformed id is answered 404 by the service, like a missing or someone else's one.
export const recipientIdParams = z.object({ id: z.string().max(100) });

export const savedRecipient = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  createdAt: z.string(),
});
export type SavedRecipient = z.infer<typeof savedRecipient>;

/** Every saved recipient, by name: at most RECIPIENT_LIMIT, so one answer holds them all. */
export const recipientList = z.object({ items: z.array(savedRecipient), limit: z.number().int() });
export type RecipientList = z.infer<typeof recipientList>;

export const recipientResponse = z.object({ message: z.string(), recipient: savedRecipient });
export type RecipientResponse = z.infer<typeof recipientResponse>;

export const addressCheckQuery = z.object({ address: recipientAddress });

/**
 * GET /api/recipients/address-check: what the review step warns about. `isFirstPayment` is true when the
 * customer never sent a pending, processing or completed transfer to this address (failed and cancelled
 * ones never reached it); `lookalike` is a saved recipient whose address this one imitates.
 */
export const addressCheck = z.object({
  savedRecipient: savedRecipient.pick({ id: true, name: true }).nullable(),
  lookalike: savedRecipient.pick({ id: true, name: true, address: true }).nullable(),
  isFirstPayment: z.boolean(),
});
export type AddressCheck = z.infer<typeof addressCheck>;

/** The same address, whatever its case. */
export function isSameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * A customer's saved recipients (address book) for USDC transfers. Staff never send money from the customer side,
 * so every endpoint refuses them (customers_only) before anything else; changes are counted per customer.
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const RECIPIENT_ENDPOINTS = /* @__PURE__ */ endpoints({
  "GET /api/recipients": { access: "user", replies: { 200: recipientList }, errors: ["customers_only"] },
  "GET /api/recipients/address-check": {
    access: "user",
    query: addressCheckQuery,
    replies: { 200: addressCheck },
    errors: ["customers_only"],
  },
  "POST /api/recipients": {
    access: "user",
    body: createRecipientInput,
    replies: { 201: recipientResponse },
    errors: ["customers_only", "duplicate_recipient", "recipient_limit_reached", "name_characters_invalid"],
    limit: { perMinute: 30, by: "user", bucket: "recipient-change" },
  },
  "PATCH /api/recipients/:id": {
    access: "user",
    params: recipientIdParams,
    body: renameRecipientInput,
    replies: { 200: recipientResponse },
    errors: ["customers_only", "NOT_FOUND", "CONFLICT", "name_characters_invalid"],
    limit: { perMinute: 30, by: "user", bucket: "recipient-change" },
  },
  "DELETE /api/recipients/:id": {
    access: "user",
    params: recipientIdParams,
    replies: { 200: messageResponse },
    errors: ["customers_only", "NOT_FOUND"],
    limit: { perMinute: 30, by: "user", bucket: "recipient-change" },
  },
});
