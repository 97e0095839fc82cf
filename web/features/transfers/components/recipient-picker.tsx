import { BookUser } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "wouter";
import { isSameAddress, type SavedRecipient } from "@/contract/recipients";
import { FormField } from "@/web/components/form-field";
import { NativeSelect } from "@/web/components/native-select";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useRecipients } from "@/web/features/recipients/api/find-recipients";

/** "0x5290…9EE7": enough of an address to tell saved recipients apart in a list. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/**
 * Picks one of the customer's saved recipients for the form (filling name and address), with the way to the
 * address book. The select shows the saved recipient whose address is in the form, whoever typed it.
 */
export function RecipientPicker({
  address,
  onPick,
}: {
  address: string;
  onPick: (recipient: SavedRecipient) => void;
}) {
  const recipients = useRecipients();
  // "Send" on /recipients opens /send-money?to=<id>: fill the form once, when the book arrives.
  const isPrefilled = useRef(false);
  useEffect(() => {
    if (isPrefilled.current || !recipients.data) return;
    isPrefilled.current = true;
    const wanted = new URLSearchParams(window.location.search).get("to");
    const recipient = recipients.data.items.find((r) => r.id === wanted);
    if (recipient) onPick(recipient);
  }, [recipients.data, onPick]);
  const manage = (
    <Link href="/recipients" className="font-medium text-brand-700 underline-offset-2 hover:underline">
      Manage saved recipients
    </Link>
  );
  if (recipients.isPending) return <Skeleton className="h-16 rounded-lg" />;
  // Typing an address still works when the book cannot load; the review step says so too.
  if (recipients.isError) return null;
  const items = recipients.data.items;
  if (items.length === 0) {
    return (
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-canvas p-3 text-sm text-ink-muted">
        <BookUser className="size-4 shrink-0 text-brand-700" aria-hidden />
        No saved recipients yet: you can save one when you review a transfer. {manage}
      </p>
    );
  }
  const current = items.find((r) => isSameAddress(r.address, address));
  return (
    <FormField id="transfer-saved-recipient" label="Saved recipient" hint={manage}>
      <NativeSelect
        id="transfer-saved-recipient"
        aria-describedby="transfer-saved-recipient-hint"
        value={current?.id ?? ""}
        onChange={(e) => {
          const picked = items.find((r) => r.id === e.target.value);
          if (picked) onPick(picked);
        }}
      >
        <option value="">Choose a saved recipient…</option>
        {items.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name} — {shortAddress(r.address)}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
