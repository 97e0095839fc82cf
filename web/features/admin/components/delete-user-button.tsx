import type { AdminUser } from "@/contract/admin";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { ConfirmButton } from "@/web/components/confirm-button";
import { toast } from "@/web/components/ui/use-toast";
import { useDeleteUser } from "@/web/features/admin/api/delete-user";
import { isUnauthorized } from "@/web/lib/api";

/** Delete with an accessible confirm step. Admin accounts get no button at all (spec §5), nor staff below owner. */
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const remove = useDeleteUser();
  const mayDelete = useStaffCapability("deleteUser");
  if (user.isAdmin || !mayDelete) return null;
  const name = `${user.firstName} ${user.lastName}`;
  const onConfirm = () =>
    remove.mutateAsync(user.id).catch((error) => {
      if (!isUnauthorized(error)) toast({ title: "Failed to delete user", variant: "destructive" });
    });
  return (
    <ConfirmButton
      variant="danger"
      aria-label={`Delete ${name}`}
      isPending={remove.isPending}
      title={`Delete ${name}?`}
      description="Are you sure you want to delete this user? This action cannot be undone."
      confirmLabel="Delete user"
      onConfirm={onConfirm}
    >
      Delete
    </ConfirmButton>
  );
}
