import { Users } from "lucide-react";
import { useState } from "react";
import type { AdminUser, UserRoleFilter } from "@/contract/admin";
import { Badge } from "@/web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAdminUsers } from "@/web/features/admin/api/get-admin-users";
import { DeleteUserButton } from "@/web/features/admin/components/delete-user-button";
import { FrozenBadge } from "@/web/features/admin/components/frozen-badge";
import { UserDetailsDialog } from "@/web/features/admin/components/user-details-dialog";
import { UserStatusBadge } from "@/web/features/admin/components/user-status-badge";
import { useSearch } from "@/web/features/admin/lists/admin-list";
import { ListSearch, LoadMore, StatusFilter } from "@/web/features/admin/lists/list-controls";
import { ListEmpty, ListError } from "@/web/features/admin/payments/list-states";
import { formatHandle, initials } from "@/web/lib/format";

function UserRow({ user }: { user: AdminUser }) {
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1.5 py-3 md:grid-cols-[auto_minmax(0,2fr)_minmax(0,1fr)_8rem_11rem]">
      <span className="flex size-9 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800">
        {initials(user.firstName, user.lastName)}
      </span>
      <div className="grid min-w-0 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          <span className="truncate">
            {user.firstName} {user.lastName}
          </span>
          {user.isAdmin ? <Badge tone="brand">Admin</Badge> : null}
          {user.frozenAt ? <FrozenBadge frozenAt={user.frozenAt} timeOnWideOnly /> : null}
        </p>
        <p className="truncate text-xs text-ink-muted">
          {user.email} · {formatHandle(user.pillarTag)}
        </p>
      </div>
      <div className="col-start-2 row-start-2 flex items-center justify-between gap-3 md:contents">
        <div>
          <UserStatusBadge status={user.status} />
        </div>
        <span className="text-sm font-medium text-ink tabular-nums md:text-right">{user.accountBalance}</span>
      </div>
      <div className="col-start-3 row-span-2 row-start-1 flex items-center justify-end gap-1 md:col-start-auto md:row-span-1 md:row-start-auto">
        <UserDetailsDialog user={user} />
        <DeleteUserButton user={user} />
      </div>
    </li>
  );
}

const ROLE_FILTERS = ["customer", "staff", "all"] as const satisfies readonly UserRoleFilter[];
const ROLE_LABELS: Record<UserRoleFilter, string> = { customer: "Customers", staff: "Staff", all: "All" };
const ROLE_DESCRIPTIONS: Record<UserRoleFilter, string> = {
  customer: "Customer accounts (what Total Users counts), newest first",
  staff: "Staff accounts, newest first",
  all: "All registered accounts, customers and staff, newest first",
};

export function UserManagementTab() {
  const search = useSearch();
  // Opens on customers: the same accounts the Total Users card counts, so the two never disagree.
  const [role, setRole] = useState<UserRoleFilter>("customer");
  const { query: users, items } = useAdminUsers({ q: search.q, role });

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="grid gap-1">
          <CardTitle>User Management</CardTitle>
          <CardDescription>{ROLE_DESCRIPTIONS[role]}</CardDescription>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <StatusFilter
            legend="Show accounts"
            options={ROLE_FILTERS}
            labelOf={(value) => ROLE_LABELS[value]}
            value={role}
            onChange={setRole}
          />
          <ListSearch
            id="admin-user-search"
            label="Search users"
            placeholder="Search name, email or tag"
            value={search.text}
            onChange={search.setText}
          />
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {users.isPending ? (
          <ul className="divide-y divide-line" aria-label="Loading users">
            {[0, 1, 2, 3].map((i) => (
              <li key={i} className="flex items-center gap-3 py-3">
                <Skeleton className="size-9 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-3 w-56 max-w-full" />
                </div>
                <Skeleton className="hidden h-5 w-16 md:block" />
              </li>
            ))}
          </ul>
        ) : users.isError ? (
          <ListError what="users" onRetry={() => users.refetch()} />
        ) : items.length === 0 ? (
          <ListEmpty
            icon={Users}
            title={
              search.q
                ? "No users match your search"
                : role === "staff"
                  ? "No staff accounts"
                  : "No users yet"
            }
            text={search.q ? "Try a different name, email or tag." : "New sign-ups will appear here."}
          />
        ) : (
          <>
            <ul className="divide-y divide-line">
              {items.map((u) => (
                <UserRow key={u.id} user={u} />
              ))}
            </ul>
            <LoadMore query={users} what="users" />
          </>
        )}
      </CardContent>
    </Card>
  );
}
