import { formatMoney } from "@/contract/money";
import { personalLimitMessage } from "@/contract/self-limits";
import { DAILY_LIMIT_CENTS, type TransferLimits } from "@/contract/transfers";

/**
 * Why an amount over what remains today is refused: the customer's own limit when it is the lower, else the bank's.
 * Shared by the send-money form (transfers) and the pay-by-$tag page (tag-payments), so both say it alike.
 */
export function overLimitMessage(limits: TransferLimits | undefined): string {
  if (limits?.ownDailyLimit && limits.ownRemainingTodayCents === limits.effectiveRemainingTodayCents) {
    return personalLimitMessage(limits.ownDailyLimit, limits.effectiveRemainingToday);
  }
  const left = limits ? ` You have ${limits.effectiveRemainingToday} left today.` : "";
  return `You can send up to ${formatMoney(DAILY_LIMIT_CENTS)} a day.${left}`;
}
