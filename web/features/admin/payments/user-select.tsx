import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/web/components/ui/select";
import { useAdminUsers } from "@/web/features/admin/api/get-admin-users";

/** Picks the customer a payment or credit is for; admins are left out (they hold no customer money). */
export function UserSelect({
  id,
  value,
  onValueChange,
  disabled,
}: {
  id: string;
  value: string;
  onValueChange: (userId: string) => void;
  disabled?: boolean;
}) {
  const users = useAdminUsers();
  const customers = (users.data ?? []).filter((u) => !u.isAdmin);
  const placeholder = users.isPending
    ? "Loading users…"
    : users.isError
      ? "Couldn't load users"
      : customers.length === 0
        ? "No customers yet"
        : "Select a user";
  return (
    <Select value={value} onValueChange={onValueChange} disabled={disabled || customers.length === 0}>
      <SelectTrigger id={id}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {customers.map((u) => (
          <SelectItem key={u.id} value={u.id}>
            {u.firstName} {u.lastName} · {u.email}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
