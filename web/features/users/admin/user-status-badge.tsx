import { Badge, type BadgeProps } from "@/web/components/ui/badge";
import { FrozenBadge } from "@/web/features/users/admin/frozen-badge";

function toneFor(status: string): BadgeProps["tone"] {
  const s = status.toLowerCase();
  if (s === "active" || s === "approved" || s === "verified") return "positive";
  if (s === "pending" || s === "in_review" || s === "unverified") return "pending";
  if (s === "suspended" || s === "blocked" || s === "inactive" || s === "rejected") return "negative";
  return "neutral";
}

/** The user's status as a badge; the status text itself is shown, so colour is never the only cue. */
export function UserStatusBadge({ status }: { status: string }) {
  const label = status.replace(/_/g, " ");
  return (
    <Badge tone={toneFor(status)} className="capitalize">
      {label || "unknown"}
    </Badge>
  );
}

/**
 * The one status an account shows in the back office: a frozen account is "Frozen" (since when), never "Active"
 * beside it; otherwise the stored status.
 */
export function AccountStatusBadge({
  user,
  timeOnWideOnly = false,
}: {
  user: { status: string; frozenAt: string | null };
  timeOnWideOnly?: boolean;
}) {
  return user.frozenAt ? (
    <FrozenBadge frozenAt={user.frozenAt} timeOnWideOnly={timeOnWideOnly} />
  ) : (
    <UserStatusBadge status={user.status} />
  );
}
