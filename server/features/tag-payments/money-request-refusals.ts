import { MONEY_REQUEST_MESSAGES, type MoneyRequestStatus } from "@/contract/money-requests";
import { AppError } from "@/server/lib/errors";

/** Another customer's request, one this side cannot decide, or one withheld from its payer: the same 404. */
export const requestNotFound = () => new AppError("NOT_FOUND", MONEY_REQUEST_MESSAGES.notFound);

/** A request no longer open, named by its state (paying it and deciding it answer alike). */
export const requestClosed = (status: MoneyRequestStatus) =>
  new AppError(
    "money_request_closed",
    MONEY_REQUEST_MESSAGES.closed[status as Exclude<MoneyRequestStatus, "open">],
    { moneyRequestStatus: status },
  );
