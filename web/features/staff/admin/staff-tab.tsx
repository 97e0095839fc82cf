import { ShieldAlert, ShieldCheck, UserCog } from "lucide-react";
import type { StaffMember } from "@/contract/staff";
import { useSearch } from "@/web/components/admin/admin-list";
import { ListSearch } from "@/web/components/admin/list-controls";
import { ListHeader, ListStates } from "@/web/components/admin/list-states";
import { PersonSummary } from "@/web/components/admin/person-summary";
import { Badge } from "@/web/components/ui/badge";
import { Card, CardContent } from "@/web/components/ui/card";
import { AddStaffForm } from "@/web/features/staff/admin/add-staff-form";
import { useStaff } from "@/web/features/staff/admin/api/get-staff";
import { EditRolesDialog } from "@/web/features/staff/admin/edit-roles-dialog";
import { RoleBadges } from "@/web/features/staff/admin/role-fields";
import { useCurrentUser } from "@/web/lib/current-user";

function StaffRow({ member, isSelf }: { member: StaffMember; isSelf: boolean }) {
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 py-3 md:grid-cols-[auto_minmax(0,2fr)_minmax(0,2fr)_9rem_auto]">
      <PersonSummary
        firstName={member.firstName}
        lastName={member.lastName}
        badges={isSelf ? <Badge>You</Badge> : null}
        detail={member.email}
      />
      <div className="col-span-2 col-start-2 row-start-2 flex flex-wrap items-center gap-2 md:contents">
        <div className="md:col-auto">
          <RoleBadges roles={member.staffRoles} />
        </div>
        <div>
          {member.secondFactorEnabled ? (
            <Badge tone="positive">
              <ShieldCheck className="size-3" aria-hidden />
              2FA on
            </Badge>
          ) : (
            <Badge tone="pending">
              <ShieldAlert className="size-3" aria-hidden />
              No second factor
            </Badge>
          )}
        </div>
      </div>
      <div className="col-start-3 row-start-1 flex justify-end md:col-start-auto md:row-start-auto">
        <EditRolesDialog member={member} isSelf={isSelf} />
      </div>
    </li>
  );
}

/** Owners only: who holds which back-office role, and the place to grant and revoke them. */
export default function StaffTab() {
  const search = useSearch();
  const { query: staff, items } = useStaff({ q: search.q });
  const { data: me } = useCurrentUser();

  return (
    <Card>
      <ListHeader
        title="Staff"
        description="Who works in the back office and what each may do"
        action={
          <ListSearch
            id="staff-search"
            label="Search staff"
            placeholder="Search name or email"
            value={search.text}
            onChange={search.setText}
          />
        }
      />
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <ListStates
            query={staff}
            items={items}
            what="staff"
            loadingLabel="Loading staff"
            shape="person"
            empty={{
              icon: UserCog,
              title: search.q ? "No staff match your search" : "No staff yet",
              text: search.q ? "Try a different name or email." : "Add someone below.",
            }}
            listLabel="Staff members"
            row={(m) => <StaffRow key={m.id} member={m} isSelf={m.id === me?.id} />}
          />
        </div>
        <div className="rounded-lg border border-line bg-canvas p-4 sm:p-5">
          <AddStaffForm />
        </div>
      </CardContent>
    </Card>
  );
}
