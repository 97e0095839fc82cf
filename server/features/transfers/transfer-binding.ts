import { createHash } from "node:crypto";

export interface TransferBindingFields {
  amountCents: number;
  feeCents: number;
  cryptoAddress: string;
  recipientName: string;
  idempotencyKey: string;
}

/**
 * What a passkey signs for a transfer: the SHA-256 (hex) of the transfer's own fields in a fixed order,
 * so an assertion made for $10 to one address never verifies for $1,000 or another address or request.
 */
export function transferBinding(fields: TransferBindingFields): string {
  const canonical = JSON.stringify([
    ["amountCents", fields.amountCents],
    ["cryptoAddress", fields.cryptoAddress],
    ["feeCents", fields.feeCents],
    ["idempotencyKey", fields.idempotencyKey],
    ["recipientName", fields.recipientName],
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
