import { type ReasonOf, reasonOf, unhandledReason } from "@/web/lib/api";

/** Why a "This wasn't me" link (freezing the account, or undoing a block on crypto sends) could not act. */
export type LinkFailure = "invalid" | "expired" | "used" | "other";

/** What the three link endpoints can refuse with (their contracts'). */
type LinkReason =
  | ReasonOf<"POST /api/account/freeze">
  | ReasonOf<"POST /api/account/freeze/check">
  | ReasonOf<"POST /api/account/send-block/undo">;

/** The link's own refusals (the freeze links' reasons), or "other" for anything else (network, 5xx). */
export function failureOf(error: unknown): LinkFailure {
  const reason = reasonOf(error) as LinkReason | undefined;
  switch (reason) {
    case "freeze_link_invalid":
      return "invalid";
    case "freeze_link_expired":
      return "expired";
    case "freeze_link_used":
      return "used";
    case "service_unavailable":
    case undefined:
      return "other";
    default:
      return unhandledReason(reason, "other");
  }
}
