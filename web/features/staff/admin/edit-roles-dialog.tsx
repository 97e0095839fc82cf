import { Pencil } from "lucide-react";
import { useState } from "react";
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffMember, type StaffRole } from "@/contract/staff";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useChangeStaffRoles } from "@/web/features/staff/admin/api/change-staff-roles";
import { RoleCheckboxes } from "@/web/features/staff/admin/role-fields";
import { isUnauthorized } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";

const names = (roles: StaffRole[]) => roles.map((r) => STAFF_ROLE_LABELS[r]).join(", ");

/**
 * Grant and revoke in one dialog: the checkboxes start at the member's roles, the summary says exactly what
 * will change, and nothing is sent before "Save changes" (the confirmation). Refusals show inside the dialog.
 */
export function EditRolesDialog({ member, isSelf }: { member: StaffMember; isSelf: boolean }) {
  const [open, setOpen] = useState(false);
  const [roles, setRoles] = useState<StaffRole[]>(member.staffRoles);
  const [error, setError] = useState<string | null>(null);
  const change = useChangeStaffRoles();
  const name = `${member.firstName} ${member.lastName}`;
  const grant = STAFF_ROLES.filter((r) => roles.includes(r) && !member.staffRoles.includes(r));
  const revoke = STAFF_ROLES.filter((r) => !roles.includes(r) && member.staffRoles.includes(r));
  const unchanged = grant.length === 0 && revoke.length === 0;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setRoles(member.staffRoles);
      setError(null);
    }
  };
  const onSave = () => {
    setError(null);
    // A member left with no role drops out of the list (and this dialog unmounts): act on the promise.
    change.mutateAsync({ userId: member.id, grant, revoke }).then(
      () => {
        toast({ title: "Roles updated", description: name });
        setOpen(false);
      },
      (failure: unknown) => {
        if (isUnauthorized(failure)) return;
        if (isStepUpCancelled(failure)) return;
        setError(errorMessage(failure, "Could not change the roles. Please try again."));
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Edit roles of ${name}`}>
          <Pencil aria-hidden />
          <span className="hidden sm:inline">Edit roles</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Roles of {name}</DialogTitle>
          <DialogDescription>{member.email}</DialogDescription>
        </DialogHeader>
        <RoleCheckboxes
          id={`roles-${member.id}`}
          value={roles}
          onChange={setRoles}
          locked={member.ownerByConfig ? { owner: "Owner by ADMIN_EMAILS: change it there" } : {}}
        />
        <div aria-live="polite" className="grid gap-1 text-sm text-ink">
          {unchanged ? (
            <p className="text-ink-muted">Tick or untick roles to change them.</p>
          ) : (
            <>
              {grant.length > 0 ? <p>Grant: {names(grant)}</p> : null}
              {revoke.length > 0 ? <p>Revoke: {names(revoke)}</p> : null}
              {roles.length === 0 ? (
                <p className="text-ink-muted">
                  {name} becomes a customer account with no back-office access.
                </p>
              ) : null}
              {isSelf && revoke.includes("owner") ? (
                <p className="font-medium text-negative">
                  You will lose the Staff tab and owner rights at once.
                </p>
              ) : null}
            </>
          )}
        </div>
        {error ? (
          <p role="alert" className="rounded-lg bg-negative-soft p-3 text-sm text-negative">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button onClick={onSave} disabled={unchanged || change.isPending}>
            {change.isPending ? <Spinner className="size-4 text-white" label="Saving" /> : null}
            Save changes
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
