import { reasonOf } from "@/web/lib/api";

/** Why a "This wasn't me" link (freezing the account, or undoing a block on crypto sends) could not act. */
export type LinkFailure = "invalid" | "expired" | "used" | "other";

/** The link's own refusals (the freeze links' reasons), or "other" for anything else (network, 5xx). */
export function failureOf(error: unknown): LinkFailure {
  switch (reasonOf(error)) {
    case "freeze_link_invalid":
      return "invalid";
    case "freeze_link_expired":
      return "expired";
    case "freeze_link_used":
      return "used";
    default:
      return "other";
  }
}
