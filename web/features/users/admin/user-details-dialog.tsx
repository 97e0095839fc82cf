import { ExternalLink, Eye } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import type { AdminUser } from "@/contract/admin";
import { BRAND } from "@/contract/brand";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { CloseAccountButton } from "@/web/features/users/admin/close-account-button";
import { FrozenBadge } from "@/web/features/users/admin/frozen-badge";
import { LiftFreezeButton } from "@/web/features/users/admin/lift-freeze-button";
import { SendBlockSection } from "@/web/features/users/admin/send-block-section";
import { AccountStatusBadge } from "@/web/features/users/admin/user-status-badge";
import { cn } from "@/web/lib/cn";
import { formatDate, formatHandle } from "@/web/lib/format";
import { PhoneNumber } from "@/web/lib/phone-display";

function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("grid gap-0.5", className)}>
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words text-ink">{children}</dd>
    </div>
  );
}

/**
 * A section another area owns in the dialog: credits' balance editor (PUT /api/admin/users/:id/balance is a
 * payments route). The back office passes it in, so users never imports payments, which imports users.
 */
export type UserSection = ComponentType<{ user: AdminUser }>;

export function UserDetailsDialog({ user, BalanceEditor }: { user: AdminUser; BalanceEditor: UserSection }) {
  const name = `${user.firstName} ${user.lastName}`;
  // Read-only for roles that cannot change these (support sees the customer, never edits money).
  const mayEditBalance = useStaffCapability("editBalance");
  const mayEditDashboard = useStaffCapability("editDashboardContent");
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`View details for ${name}`}>
          <Eye aria-hidden />
          <span className="hidden sm:inline">View</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>User Details</DialogTitle>
          <DialogDescription>
            {name} · {formatHandle(user.pillarTag)}
          </DialogDescription>
        </DialogHeader>
        {user.frozenAt ? (
          <section
            aria-labelledby={`frozen-${user.id}`}
            className="grid gap-3 rounded-lg border border-negative/30 bg-negative-soft p-4 text-sm text-ink"
          >
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={`frozen-${user.id}`} className="font-semibold">
                Account frozen
              </h3>
              <FrozenBadge frozenAt={user.frozenAt} />
            </div>
            <p>
              The customer used “This wasn't me”: every session was ended, new transfers are refused and
              pending ones are flagged.
              {user.passwordResetRequired ? " They must reset their password before signing in." : ""}
            </p>
            <div>
              <LiftFreezeButton user={user} />
            </div>
          </section>
        ) : null}
        <SendBlockSection user={user} />
        <div>
          <CloseAccountButton user={user} />
        </div>
        {mayEditBalance ? <BalanceEditor user={user} /> : null}
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label="First name">{user.firstName}</Field>
          <Field label="Last name">{user.lastName}</Field>
          <Field label="Email">{user.email}</Field>
          <Field label="Phone number">
            <span className="tabular-nums">
              {user.phoneNumber ? <PhoneNumber stored={user.phoneNumber} /> : "Not added"}
            </span>
          </Field>
          <Field label={BRAND.handleLabel}>{formatHandle(user.pillarTag)}</Field>
          <Field label="Role">{user.isAdmin ? <Badge tone="brand">Admin</Badge> : "User"}</Field>
          <Field label="Status">
            <AccountStatusBadge user={user} />
          </Field>
          <Field label="Email verified">
            {user.isEmailVerified ? (
              <Badge tone="positive">Verified</Badge>
            ) : (
              <Badge tone="pending">Not verified</Badge>
            )}
          </Field>
          <Field label="Available balance">
            <span className="tabular-nums">{user.availableBalance}</span>
          </Field>
          <Field label="Pending balance">
            <span className="tabular-nums">{user.pendingBalance}</span>
          </Field>
          <Field label="Joined">{formatDate(user.createdAt)}</Field>
          <Field label="User ID" className="sm:col-span-2">
            <span className="font-mono text-xs break-all">{user.id}</span>
          </Field>
        </dl>
        {mayEditDashboard ? (
          <Button asChild variant="secondary" className="justify-self-start">
            <a href={`/dashboard-edit/${encodeURIComponent(user.id)}`} target="_blank" rel="noopener">
              <ExternalLink aria-hidden />
              Edit Dashboard Content
            </a>
          </Button>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
