import { AUTH_MESSAGES } from "@/contract/auth";
import { normalisePhone } from "@/contract/phone";
import { AppError } from "@/server/lib/errors";

/** A typed phone number in E.164 (+14155550132), or 400 "Please enter a valid phone number" on the field. */
export function phoneInE164(typed: string): string {
  const phone = normalisePhone(typed);
  if (!phone) throw new AppError("VALIDATION", AUTH_MESSAGES.phoneInvalid, { field: "phoneNumber" });
  return phone;
}
