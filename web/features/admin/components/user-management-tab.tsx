import { AlertCircle, Search, Users } from "lucide-react";
import { useMemo, useState } from "react";
import type { AdminUser } from "@/contract/admin";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAdminUsers } from "@/web/features/admin/api/get-admin-users";
import { DeleteUserButton } from "@/web/features/admin/components/delete-user-button";
import { FrozenBadge } from "@/web/features/admin/components/frozen-badge";
import { UserDetailsDialog } from "@/web/features/admin/components/user-details-dialog";
import { UserStatusBadge } from "@/web/features/admin/components/user-status-badge";
import { formatHandle, initials } from "@/web/lib/format";

/** Name, e-mail or tag, case-insensitive; "$tag" matches too. */
function matches(user: AdminUser, query: string): boolean {
  const q = query.trim().toLowerCase().replace(/^\$/, "");
  if (!q) return true;
  return [`${user.firstName} ${user.lastName}`, user.email, user.pillarTag].some((v) =>
    v.toLowerCase().includes(q),
  );
}

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

export function UserManagementTab() {
  const users = useAdminUsers();
  const [query, setQuery] = useState("");
  const visible = useMemo(() => (users.data ?? []).filter((u) => matches(u, query)), [users.data, query]);

  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <CardTitle>User Management</CardTitle>
          <CardDescription>
            {users.data ? (
              <span className="tabular-nums">
                {users.data.length} {users.data.length === 1 ? "user" : "users"}
              </span>
            ) : (
              "All registered accounts"
            )}
          </CardDescription>
        </div>
        <div className="relative w-full sm:max-w-xs">
          <Label htmlFor="admin-user-search" className="sr-only">
            Search users
          </Label>
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-subtle"
            aria-hidden
          />
          <Input
            id="admin-user-search"
            type="search"
            placeholder="Search name, email or tag"
            className="pl-9"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </CardHeader>
      <CardContent>
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
          <div className="flex flex-col items-start gap-3 rounded-lg bg-negative-soft p-4 text-sm text-negative">
            <p className="flex items-center gap-2">
              <AlertCircle className="size-4" aria-hidden />
              We couldn't load the users. Check your connection and try again.
            </p>
            <Button variant="secondary" size="sm" onClick={() => users.refetch()}>
              Try again
            </Button>
          </div>
        ) : visible.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-10 text-center">
            <Users className="size-8 text-ink-subtle" aria-hidden />
            <p className="text-sm font-medium text-ink">
              {users.data.length === 0 ? "No users yet" : "No users match your search"}
            </p>
            <p className="text-sm text-ink-muted">
              {users.data.length === 0
                ? "New sign-ups will appear here."
                : "Try a different name, email or tag."}
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-line">
            {visible.map((u) => (
              <UserRow key={u.id} user={u} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
