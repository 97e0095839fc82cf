import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from "@/contract/staff";
import { Badge } from "@/web/components/ui/badge";
import { Checkbox } from "@/web/components/ui/checkbox";
import { cn } from "@/web/lib/cn";

/** What each role may do, in the words of the Staff tab (the server's table is contract/admin-route-roles.ts). */
export const STAFF_ROLE_DUTIES: Record<StaffRole, string> = {
  support: "Chats and a read-only customer view",
  compliance: "Identity checks, documents, account opening, freezes",
  finance: "Payments, credits, transfers, balances",
  owner: "Everything, including granting roles",
};

export function RoleBadges({ roles }: { roles: readonly StaffRole[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Roles">
      {roles.map((role) => (
        <li key={role}>
          <Badge tone="brand">{STAFF_ROLE_LABELS[role]}</Badge>
        </li>
      ))}
    </ul>
  );
}

/** One checkbox per role with its duties; `locked` roles show but cannot change. */
export function RoleCheckboxes({
  id,
  value,
  onChange,
  locked = {},
  error,
}: {
  id: string;
  value: readonly StaffRole[];
  onChange: (roles: StaffRole[]) => void;
  locked?: Partial<Record<StaffRole, string>>;
  error?: string | null;
}) {
  const toggle = (role: StaffRole, on: boolean) =>
    onChange(STAFF_ROLES.filter((r) => (r === role ? on : value.includes(r))));
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-1.5 text-sm font-medium text-ink">Roles</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {STAFF_ROLES.map((role) => {
          const boxId = `${id}-${role}`;
          const lockedWhy = locked[role];
          return (
            <div
              key={role}
              className={cn(
                "flex items-start gap-3 rounded-lg border border-line bg-surface p-3",
                value.includes(role) && "border-brand-200 bg-brand-50",
              )}
            >
              <Checkbox
                id={boxId}
                className="mt-0.5"
                checked={value.includes(role)}
                disabled={Boolean(lockedWhy)}
                onCheckedChange={(checked) => toggle(role, checked === true)}
                aria-describedby={`${boxId}-duties`}
              />
              <div className="grid gap-0.5">
                <label htmlFor={boxId} className="text-sm font-medium text-ink">
                  {STAFF_ROLE_LABELS[role]}
                </label>
                <p id={`${boxId}-duties`} className="text-xs text-ink-muted">
                  {lockedWhy ?? STAFF_ROLE_DUTIES[role]}
                </p>
              </div>
            </div>
          );
        })}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-negative">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
