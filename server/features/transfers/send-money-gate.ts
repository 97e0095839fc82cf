import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { AppError } from "@/server/lib/errors";

/** The refusal when can_send_money (migration 0014; contract/send-money-gate.ts) is false. */
export function setupIncompleteError(): AppError {
  return new AppError("FORBIDDEN", TRANSFER_MESSAGES.setupIncomplete, { accountSetupIncomplete: true });
}
