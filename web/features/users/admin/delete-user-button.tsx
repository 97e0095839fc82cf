import type { AdminUser } from "@/contract/admin";
import { toastFixedFailure } from "@/web/components/admin/admin-toasts";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { ConfirmButton } from "@/web/components/confirm-button";
import { useDeleteUser } from "@/web/features/users/admin/api/delete-user";
import { isUnauthorized } from "@/web/lib/api";

/** Delete with an accessible confirm step. Admin accounts get no button at all, nor staff below owner. */
export function DeleteUserButton({ user }: { user: AdminUser }) {
  const remove = useDeleteUser();
  const mayDelete = useStaffCapability("deleteUser");
  if (user.isAdmin || !mayDelete) return null;
  const name = `${user.firstName} ${user.lastName}`;
  // The spec's title, and under it the server's reason (money still on the account, transfers in flight):
  // without it staff could not tell what to do next. A 401 is the session-expired redirect's to report.
  const onConfirm = () =>
    remove.mutateAsync(user.id).catch((error) => {
      if (!isUnauthorized(error)) toastFixedFailure("Failed to delete user")(error);
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
