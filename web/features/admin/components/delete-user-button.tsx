import { Trash2 } from "lucide-react";
import type { AdminUser } from "@/contract/admin";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/web/components/ui/alert-dialog";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/components/ui/use-toast";
import { useDeleteUser } from "@/web/features/admin/api/delete-user";
import { useStaffCapability } from "@/web/features/admin/use-staff-capability";
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
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="text-negative hover:bg-negative-soft hover:text-negative"
          disabled={remove.isPending}
          aria-label={`Delete ${name}`}
        >
          <Trash2 aria-hidden />
          <span className="hidden sm:inline">Delete</span>
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {name}?</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete this user? This action cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Delete user</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
