import { createHash } from "node:crypto";

export interface ScheduleBindingFields {
  recipientId: string;
  address: string;
  amountCents: number;
  cadence: string;
  startOn: string;
  endOn: string | null;
  requestKey: string;
}

/**
 * What a passkey signs for a new schedule: the SHA-256 (hex) of its fields in a fixed order, tagged as a schedule
 * so an assertion made for one never verifies for a transfer (whose binding has other fields) or another schedule.
 */
export function scheduleBinding(fields: ScheduleBindingFields): string {
  const canonical = JSON.stringify([
    ["kind", "transfer_schedule"],
    ["address", fields.address],
    ["amountCents", fields.amountCents],
    ["cadence", fields.cadence],
    ["endOn", fields.endOn],
    ["recipientId", fields.recipientId],
    ["requestKey", fields.requestKey],
    ["startOn", fields.startOn],
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}
