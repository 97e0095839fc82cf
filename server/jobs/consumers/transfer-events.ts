import { z } from "zod";
import type { JobEvent } from "@/server/jobs/consumer";

/** The kind create_transfer_request writes once per transfer it makes. */
export const TRANSFER_REQUESTED = "transfer.requested";

/** Its payload, as the function writes it (server/db/functions/create-transfer-request.sql). */
const transferRequested = z.object({
  transfer_id: z.guid(),
  amount_cents: z.number().int().positive(),
  fee_cents: z.number().int().nonnegative(),
  crypto_address: z.string().min(1),
  recipient_name: z.string().min(1),
  created_at: z.string().min(1),
  /** A schedule's run or the customer's own request (absent from events written before decision 054). */
  channel: z.enum(["direct", "schedule"]).optional(),
  /** Why it waits under review ('sanctions', 'compliance_hold', 'new_device_new_address'); empty when it does not. */
  review: z.array(z.string()),
  /** When the new-device rule held it: the device's first sign-in the function found. */
  new_device_at: z.string().nullable(),
});
export type TransferRequested = z.infer<typeof transferRequested> & { userId: string; eventId: string };

/** The batch's transfer.requested events of customers who still exist, their payloads checked. */
export function transferRequests(events: JobEvent[]): TransferRequested[] {
  return events.flatMap((event) =>
    event.kind === TRANSFER_REQUESTED && event.userId
      ? [{ ...transferRequested.parse(event.payload), userId: event.userId, eventId: event.id }]
      : [],
  );
}
