import { feeFor } from "@/contract/transfers";

/** What the recipient gets for a gross amount: amount minus the 2% fee (net = amount × 0.98). */
export function netFor(amountCents: number): number {
  return amountCents - feeFor(amountCents);
}

/**
 * The smallest gross amount whose net is at least `netCents`, so typing in the "recipient gets" field
 * fills the amount field (the two sync both ways). Exact in cents: no floating-point money.
 */
export function grossForNet(netCents: number): number {
  if (netCents <= 0) return 0;
  let gross = Math.floor((netCents * 100) / 98);
  while (netFor(gross) < netCents) gross += 1;
  while (gross > 0 && netFor(gross - 1) >= netCents) gross -= 1;
  return gross;
}
