import { UserPlus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { STAFF_ROLE_LABELS, type StaffRole } from "@/contract/staff";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { toastApiError } from "@/web/components/toast-error";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/web/components/ui/alert-dialog";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useAddStaff } from "@/web/features/staff/admin/api/change-staff-roles";
import { RoleCheckboxes } from "@/web/features/staff/admin/role-fields";
import { ApiError } from "@/web/lib/api";
import { isStepUpCancelled } from "@/web/lib/step-up";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Roles for an existing account, found by e-mail, after a confirm step; refusals show under the field. */
export function AddStaffForm() {
  const [email, setEmail] = useState("");
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [errors, setErrors] = useState<{ email?: string; roles?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const add = useAddStaff();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      email: EMAIL.test(email.trim()) ? undefined : "Enter the e-mail of an existing account",
      roles: roles.length > 0 ? undefined : "Choose one or more roles",
    };
    setErrors(next);
    if (next.email) return focusFieldInError("staff-email");
    if (next.roles) return focusFieldInError("staff-roles-support");
    setConfirming(true);
  };

  const onConfirm = () =>
    add.mutate(
      { email: email.trim(), roles },
      {
        onSuccess: (member) => {
          toast({
            title: "Roles granted",
            description: `${member.firstName} ${member.lastName} now holds ${member.staffRoles.map((r) => STAFF_ROLE_LABELS[r]).join(", ")}.`,
          });
          setEmail("");
          setRoles([]);
          setErrors({});
        },
        onError: (error) => {
          // The account is the problem (none, unverified, a customer): say so where the e-mail was typed.
          if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
            setErrors({ email: error.message });
            focusFieldInError("staff-email");
          } else if (!isStepUpCancelled(error)) {
            toastApiError(error, "Could not grant roles");
          }
        },
      },
    );

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate aria-labelledby="add-staff-title">
      <h3 id="add-staff-title" className="text-sm font-semibold text-ink">
        Add staff
      </h3>
      <FormField
        id="staff-email"
        label="Email"
        hint="The person signs up as usual first; staff accounts never bank with Pillar."
        error={errors.email}
      >
        <Input
          id="staff-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          {...fieldAria("staff-email", { hint: true, error: errors.email })}
        />
      </FormField>
      <RoleCheckboxes id="staff-roles" value={roles} onChange={setRoles} error={errors.roles} />
      <Button type="submit" className="sm:justify-self-start" disabled={add.isPending}>
        {add.isPending ? (
          <Spinner className="size-4 text-white" label="Granting" />
        ) : (
          <UserPlus aria-hidden />
        )}
        Add staff
      </Button>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Grant {roles.map((r) => STAFF_ROLE_LABELS[r]).join(", ")}?</AlertDialogTitle>
            <AlertDialogDescription>
              {email.trim()} can act as {roles.map((r) => STAFF_ROLE_LABELS[r]).join(", ")} from their next
              request, once they have set up a second factor. The change is recorded in the audit log.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={onConfirm}>Grant roles</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}
