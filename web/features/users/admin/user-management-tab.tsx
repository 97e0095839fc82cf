import { Users } from "lucide-react";
import type { AdminUser, UserRoleFilter } from "@/contract/admin";
import { useListFilter } from "@/web/components/admin/admin-list";
import { FilterBar } from "@/web/components/admin/list-controls";
import { ListHeader, ListStates } from "@/web/components/admin/list-states";
import { PersonSummary } from "@/web/components/admin/person-summary";
import { Badge } from "@/web/components/ui/badge";
import { Card, CardContent } from "@/web/components/ui/card";
import { useAdminUsers } from "@/web/features/users/admin/api/get-admin-users";
import { DeleteUserButton } from "@/web/features/users/admin/delete-user-button";
import { UserDetailsDialog, type UserSection } from "@/web/features/users/admin/user-details-dialog";
import { AccountStatusBadge } from "@/web/features/users/admin/user-status-badge";
import { formatHandle } from "@/web/lib/format";

function UserRow({ user, BalanceEditor }: { user: AdminUser; BalanceEditor: UserSection }) {
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1.5 py-3 md:grid-cols-[auto_minmax(0,2fr)_minmax(0,1fr)_8rem_11rem]">
      <PersonSummary
        firstName={user.firstName}
        lastName={user.lastName}
        badges={user.isAdmin ? <Badge tone="brand">Admin</Badge> : null}
        detail={`${user.email} · ${formatHandle(user.pillarTag)}`}
      />
      <div className="col-start-2 row-start-2 flex items-center justify-between gap-3 md:contents">
        <div>
          <AccountStatusBadge user={user} timeOnWideOnly />
        </div>
        <span className="text-sm font-medium text-ink tabular-nums md:text-right">{user.accountBalance}</span>
      </div>
      <div className="col-start-3 row-span-2 row-start-1 flex items-center justify-end gap-1 md:col-start-auto md:row-span-1 md:row-start-auto">
        <UserDetailsDialog user={user} BalanceEditor={BalanceEditor} />
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

export function UserManagementTab({ BalanceEditor }: { BalanceEditor: UserSection }) {
  // Opens on customers: the same accounts the Total Users card counts, so the two never disagree.
  const filter = useListFilter<UserRoleFilter>("customer");
  const { q } = filter.search;
  const { query: users, items } = useAdminUsers({ q, role: filter.status });

  return (
    <Card>
      <ListHeader title="User Management" description={ROLE_DESCRIPTIONS[filter.status]}>
        <FilterBar
          filter={filter}
          legend="Show accounts"
          options={ROLE_FILTERS}
          labelOf={(value) => ROLE_LABELS[value]}
          search={{
            id: "admin-user-search",
            label: "Search users",
            placeholder: "Search name, email or tag",
          }}
          wideFrom="sm"
        />
      </ListHeader>
      <CardContent className="grid gap-4">
        <ListStates
          query={users}
          items={items}
          what="users"
          loadingLabel="Loading users"
          shape="person"
          empty={{
            icon: Users,
            title: q
              ? "No users match your search"
              : filter.status === "staff"
                ? "No staff accounts"
                : "No users yet",
            text: q ? "Try a different name, email or tag." : "New sign-ups will appear here.",
          }}
          row={(u) => <UserRow key={u.id} user={u} BalanceEditor={BalanceEditor} />}
        />
      </CardContent>
    </Card>
  );
}
