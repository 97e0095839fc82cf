import { BookUser, Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { createRecipientInput, RECIPIENT_NAME_MAX } from "@/contract/recipients";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { toastApiError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useRecipients } from "@/web/features/recipients/api/find-recipients";
import { useSaveRecipient } from "@/web/features/recipients/api/save-recipient";
import { RecipientRow } from "@/web/features/recipients/components/recipient-row";
import { ApiError, isUnauthorized } from "@/web/lib/api";
import { useDocumentTitle } from "@/web/lib/use-document-title";

type Errors = { name?: string; address?: string };

function AddRecipientForm() {
  const [name, setName] = useState("");
  const [address, setAddress] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveRecipient();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createRecipientInput.safeParse({ name, address });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Errors;
        found[key] ??= issue.message;
      }
      setErrors(found);
      focusFieldInError(found.name ? "recipient-name" : "recipient-address");
      return;
    }
    save.mutate(parsed.data, {
      onSuccess: () => {
        toast({ title: "Recipient saved", description: parsed.data.name });
        setName("");
        setAddress("");
      },
      onError: (error) => {
        if (isUnauthorized(error)) return;
        if (error instanceof ApiError && error.reason === "duplicate_recipient") {
          const savedAs = error.flags.savedAs;
          setErrors({
            address: typeof savedAs === "string" ? `${error.message} (as ${savedAs})` : error.message,
          });
          focusFieldInError("recipient-address");
        } else if (error instanceof ApiError && error.status < 500) {
          setErrors({ address: error.message });
          focusFieldInError("recipient-address");
        } else {
          toastApiError(error, "Failed to save recipient");
        }
      },
    });
  };
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <FormField id="recipient-name" label="Name" error={errors.name}>
        <Input
          id="recipient-name"
          autoComplete="off"
          maxLength={RECIPIENT_NAME_MAX + 20}
          value={name}
          {...fieldAria("recipient-name", { error: errors.name })}
          onChange={(e) => {
            setName(e.target.value);
            setErrors((x) => ({ ...x, name: undefined }));
          }}
        />
      </FormField>
      <FormField
        id="recipient-address"
        label="USDC Wallet Address"
        hint="An Ethereum address (0x followed by 40 characters) or a Solana address."
        error={errors.address}
      >
        <Input
          id="recipient-address"
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
          placeholder="0x…"
          className="font-mono"
          value={address}
          {...fieldAria("recipient-address", { hint: true, error: errors.address })}
          onChange={(e) => {
            setAddress(e.target.value);
            setErrors((x) => ({ ...x, address: undefined }));
          }}
        />
      </FormField>
      <Button type="submit" disabled={save.isPending} className="w-full sm:w-auto sm:justify-self-start">
        <Plus aria-hidden />
        Save recipient
      </Button>
    </form>
  );
}

function RecipientList() {
  const recipients = useRecipients();
  if (recipients.isError) {
    return <LoadError what="your saved recipients" onRetry={() => void recipients.refetch()} />;
  }
  if (!recipients.data) {
    return (
      <div className="grid gap-2" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-20 rounded-lg" />
        ))}
      </div>
    );
  }
  const { items, limit } = recipients.data;
  if (items.length === 0) {
    return (
      <p className="flex items-start gap-2 text-sm text-ink-muted">
        <BookUser className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
        No saved recipients yet. Add one here, or tick "Save" when you review a transfer.
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <p className="text-xs text-ink-muted tabular-nums">
        {items.length} of {limit} saved
      </p>
      <ul className="divide-y divide-line rounded-lg border border-line" aria-label="Saved recipients">
        {items.map((recipient) => (
          <RecipientRow key={recipient.id} recipient={recipient} />
        ))}
      </ul>
    </div>
  );
}

/** /recipients: the customer's address book — add, rename, remove — linked from Send Money. */
export default function RecipientsPage() {
  useDocumentTitle("Saved recipients");
  return (
    <MoneyShell title="Saved recipients" tab="/send-money">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight text-ink">Saved recipients</h1>
          <p className="max-w-2xl text-sm text-ink-muted">
            Pick them when you send money. A transfer to an address that only looks like a saved one (same
            first and last characters) is stopped until you confirm it.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="secondary">
            <Link href="/schedules">Scheduled transfers</Link>
          </Button>
          <Button asChild variant="secondary">
            <Link href="/send-money">Send money</Link>
          </Button>
        </div>
      </div>
      <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>Your recipients</CardTitle>
          </CardHeader>
          <CardContent>
            <RecipientList />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Add a recipient</CardTitle>
            <CardDescription>A name you'll recognise and their USDC address.</CardDescription>
          </CardHeader>
          <CardContent>
            <AddRecipientForm />
          </CardContent>
        </Card>
      </div>
    </MoneyShell>
  );
}
