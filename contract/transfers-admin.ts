import { z } from "zod";
import { pendingApprovalResponse } from "@/contract/approvals";
import { endpoints } from "@/contract/endpoint";
import { liftSendBlockInput, selfLimitNoteInput, selfLimitNotes, selfLimits } from "@/contract/self-limits";
import {
  adminTransferRequestPage,
  transferRequest,
  transferRequestsQuery,
  updateTransferInput,
} from "@/contract/transfers";

// The staff side of transfers (server/features/transfers/admin-routes.ts), apart from contract/transfers.ts and
// contract/self-limits.ts: the customer's pages load those, and the maker-checker's answer (contract/approvals.ts)
// is for the back office only.

const transferIdParams = z.object({ id: z.uuid({ error: "Invalid id" }) });
const customerParams = z.object({ userId: z.uuid({ error: "Invalid id" }) });

/**
 * The admin transfer desk: every customer's transfer requests and settling them; a flagged transfer moving
 * anywhere but cancelled or failed waits for a second staff member (202). Staff and a customer's own limits: a
 * note is the only thing support does about them (decision 035); lifting the send block is the one exception,
 * by two compliance members with the customer's identity re-verified (decision 047): always 202, decided in the
 * Approvals tab.
 */
export const TRANSFER_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/transfer-requests": {
    access: ["finance"],
    query: transferRequestsQuery,
    replies: { 200: adminTransferRequestPage },
  },
  "PUT /api/admin/transfer-requests/:id": {
    access: ["finance"],
    params: transferIdParams,
    body: updateTransferInput,
    replies: { 200: transferRequest, 202: pendingApprovalResponse },
    errors: [
      "NOT_FOUND",
      "CONFLICT",
      "transfer_held",
      "transfer_under_review",
      "compliance_hold",
      "completed_by_chain",
      "payout_in_flight",
    ],
  },
  "POST /api/admin/users/:userId/self-limit-notes": {
    access: ["support"],
    params: customerParams,
    body: selfLimitNoteInput,
    replies: { 201: selfLimitNotes },
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/users/:userId/self-limits": {
    access: ["compliance"],
    params: customerParams,
    replies: { 200: selfLimits },
    errors: ["NOT_FOUND"],
  },
  "POST /api/admin/users/:userId/lift-send-block": {
    access: ["compliance"],
    params: customerParams,
    body: liftSendBlockInput,
    replies: { 202: pendingApprovalResponse },
    errors: ["NOT_FOUND", "not_sends_blocked"],
  },
});
