import { useState } from "react";
import type { AdminUserQuery } from "@/contract/admin";
import { useSearch } from "@/web/components/admin/admin-list";
import { fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/web/components/ui/select";
import { useAdminUsers } from "@/web/features/users/admin/api/get-admin-users";

/**
 * Picks the customer a payment or credit is for: only customers whose checking account is open, the only ones
 * the server lets money reach (staff never bank). The list is searched on the server (name, e-mail or $tag), so
 * every such customer can be found however many there are.
 */
export function UserSelect({
  id,
  value,
  onValueChange,
  disabled,
  error,
}: {
  id: string;
  value: string;
  onValueChange: (userId: string) => void;
  disabled?: boolean;
  /** The field's inline error (shown by its FormField), announced with the trigger. */
  error?: string;
}) {
  const search = useSearch();
  // Filtered on the server: a page of staff or of customers without an account never hides one who may receive.
  // (A literal, not contract/admin's RECEIVING_FILTER: importing a value from it would bring zod along.)
  const role: AdminUserQuery["role"] = "open_account";
  const { query: users, items } = useAdminUsers({ q: search.q, role });
  // The chosen customer keeps its label when a later search no longer lists them.
  const [chosen, setChosen] = useState<{ id: string; label: string } | null>(null);
  const customers = items
    .filter((u) => !u.isAdmin)
    .map((u) => ({ id: u.id, label: `${u.firstName} ${u.lastName} · ${u.email}` }));
  const options =
    chosen && chosen.id === value && !customers.some((c) => c.id === value)
      ? [chosen, ...customers]
      : customers;
  const placeholder = users.isPending
    ? "Loading users…"
    : users.isError
      ? "Couldn't load users"
      : customers.length === 0
        ? search.q
          ? "No customers with an open account match"
          : "No customers with an open account yet"
        : "Select a user";
  return (
    // min-w-0 down to the trigger: a long chosen "name · e-mail" truncates instead of widening a phone's dialog.
    <div className="grid min-w-0 gap-2">
      <Input
        type="search"
        aria-label="Search customers"
        placeholder="Search name, email or tag"
        value={search.text}
        onChange={(e) => search.setText(e.target.value)}
        disabled={disabled}
      />
      <Select
        value={value}
        onValueChange={(userId) => {
          setChosen(options.find((o) => o.id === userId) ?? null);
          onValueChange(userId);
        }}
        disabled={disabled || options.length === 0}
      >
        <SelectTrigger id={id} className="min-w-0" {...fieldAria(id, { error })}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {options.map((u) => (
            <SelectItem key={u.id} value={u.id}>
              {u.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
