import { formatMoney } from "@/contract/money";
import type { Category } from "@/contract/transaction-categories";
import { isUsdcAddress, TRANSFER_MESSAGES } from "@/contract/transfers";

export type Method = "crypto" | "ach";

export interface Fields {
  amount: string;
  net: string;
  recipientName: string;
  cryptoAddress: string;
  purpose: string;
  category: Category | "";
}

export const EMPTY_FIELDS: Fields = {
  amount: "",
  net: "",
  recipientName: "",
  cryptoAddress: "",
  purpose: "",
  category: "",
};

export type FieldErrors = Partial<Record<keyof Fields, string>>;

export const FIELD_IDS: Record<keyof Fields, string> = {
  amount: "transfer-amount",
  net: "transfer-net",
  recipientName: "transfer-recipient",
  cryptoAddress: "transfer-address",
  purpose: "transfer-purpose",
  category: "transfer-category",
};

/** The toast names what is missing. */
const REQUIRED: [keyof Fields, string][] = [
  ["amount", "Amount"],
  ["recipientName", "Recipient Name"],
  ["purpose", "Transfer Purpose"],
  ["cryptoAddress", "USDC Wallet Address"],
];

/**
 * The first refusal of these fields, as the spec's toast plus its inline twin on the field in error, or null
 * when they can go to the review step.
 */
export function firstProblem(
  fields: Fields,
  amountCents: number | null,
  availableCents: number,
): { title: string; description: string; errors: FieldErrors } | null {
  const missing = REQUIRED.filter(([key]) => fields[key].trim() === "");
  if (missing.length > 0)
    return {
      title: "Missing Information",
      description: `Please fill in: ${missing.map(([, name]) => name).join(", ")}`,
      errors: Object.fromEntries(missing.map(([key]) => [key, "This field is required"])),
    };
  if (amountCents === null) {
    const description = TRANSFER_MESSAGES.amountInvalid;
    return { title: "Invalid Amount", description, errors: { amount: description } };
  }
  if (amountCents <= 0) {
    const description = TRANSFER_MESSAGES.amountPositive;
    return { title: "Invalid Amount", description, errors: { amount: description } };
  }
  if (!isUsdcAddress(fields.cryptoAddress.trim())) {
    const description = TRANSFER_MESSAGES.addressInvalid;
    return { title: "Invalid Wallet Address", description, errors: { cryptoAddress: description } };
  }
  if (amountCents > availableCents) {
    return {
      title: "Insufficient Funds",
      description: `Your available balance is ${formatMoney(availableCents)}`,
      errors: { amount: `Insufficient funds: your available balance is ${formatMoney(availableCents)}` },
    };
  }
  return null;
}
