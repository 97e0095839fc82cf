import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { AppError } from "@/server/lib/errors";

/** The refusal when can_send_money (server/db/functions/can-send-money.sql) is false. */
export function setupIncompleteError(): AppError {
  return new AppError("FORBIDDEN", TRANSFER_MESSAGES.setupIncomplete, { accountSetupIncomplete: true });
}
