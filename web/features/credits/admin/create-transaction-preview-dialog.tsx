import { ArrowDownLeft, Eye } from "lucide-react";
import { type FormEvent, useState } from "react";
import { formatMoney, parseMoney } from "@/contract/money";
import { CATEGORIES } from "@/contract/transaction-categories";
import { DialogActions } from "@/web/components/admin/dialog-parts";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { useCreateCredit } from "@/web/features/credits/admin/add-incoming-transaction-dialog";
import { TRANSACTION_STATUS_BADGES } from "@/web/features/credits/admin/payment-statuses";
import {
  creditSubmitLabel,
  EMPTY_TRANSACTION_DRAFT,
  type TransactionDraft,
  TransactionFields,
} from "@/web/features/credits/admin/transaction-fields";
import { useAdminUser } from "@/web/features/users/admin/api/get-admin-user";
import { cn } from "@/web/lib/cn";
import { formatDate } from "@/web/lib/format";

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The preview id looks like 'tra-' plus 9 random characters (display only; the server assigns the real id). */
export function previewTransactionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `tra-${Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("")}`;
}

/** The credit as the customer will see it, redrawn on every keystroke. */
function PreviewCard({ draft, previewId }: { draft: TransactionDraft; previewId: string }) {
  const selected = useAdminUser(draft.userId, { enabled: draft.userId !== "" });
  const user = draft.userId ? selected.data : undefined;
  const parsed = parseMoney(draft.amount);
  const amount = parsed !== null && parsed > 0 ? parsed : 0;
  const balance = user ? parseMoney(user.accountBalance) : null;
  const badge = TRANSACTION_STATUS_BADGES[draft.status];
  const isCompleted = draft.status === "completed";
  return (
    <section
      aria-label="Transaction preview"
      className="grid content-start gap-4 rounded-card border border-line bg-canvas p-4"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-medium tracking-wide text-ink-muted uppercase">Live preview</p>
        <span className="font-mono text-xs text-ink-subtle">{previewId}</span>
      </div>
      <div className="grid gap-3 rounded-lg border border-line bg-surface p-3 shadow-card">
        <div className="flex items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-positive-soft text-positive">
            <ArrowDownLeft className="size-4" aria-hidden />
          </span>
          <div className="grid min-w-0 flex-1 gap-0.5">
            <p className="text-sm font-medium break-words text-ink">
              {draft.description.trim() || <span className="text-ink-subtle">Description</span>}
            </p>
            <p className="text-xs text-ink-muted">
              {CATEGORIES[draft.category].label} · {formatDate(new Date())}
            </p>
          </div>
        </div>
        <div className="flex items-center justify-between gap-2 border-t border-line pt-3">
          <Badge tone={badge.tone}>{badge.label}</Badge>
          <span
            className={cn(
              "text-lg font-semibold whitespace-nowrap tabular-nums",
              isCompleted && amount > 0 ? "text-positive" : "text-ink",
            )}
          >
            +{formatMoney(amount)}
          </span>
        </div>
      </div>
      <dl className="grid gap-2 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-ink-muted">Customer</dt>
          <dd className="truncate text-right text-ink">
            {user ? (
              `${user.firstName} ${user.lastName}`
            ) : (
              <span className="text-ink-subtle">No user selected</span>
            )}
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-ink-muted">Type</dt>
          <dd className="text-ink">Credit</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-ink-muted">Current balance</dt>
          <dd className="text-ink tabular-nums">{user?.accountBalance ?? "—"}</dd>
        </div>
        {isCompleted && balance !== null ? (
          <div className="flex justify-between gap-3 border-t border-line pt-2 font-medium">
            <dt className="text-ink">Balance after</dt>
            <dd className="text-ink tabular-nums">{formatMoney(balance + amount)}</dd>
          </div>
        ) : null}
      </dl>
      <p className="text-xs text-ink-subtle">
        {isCompleted
          ? "The balance rises by this amount as soon as you create it."
          : "The balance changes only when this credit is completed."}
      </p>
    </section>
  );
}

/** 'Create Transaction with Preview': the same credit form beside a live preview card. */
export function CreateTransactionPreviewDialog() {
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<TransactionDraft>(EMPTY_TRANSACTION_DRAFT);
  const [previewId, setPreviewId] = useState(previewTransactionId);
  const credit = useCreateCredit(
    "preview-transaction",
    () => setOpen(false),
    () => setDraft((d) => ({ ...d, reasonAsked: true })),
  );

  const onOpenChange = (open: boolean) => {
    if (open) {
      setDraft(EMPTY_TRANSACTION_DRAFT);
      setPreviewId(previewTransactionId());
      credit.reset();
    }
    setOpen(open);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    credit.submit(
      draft,
      !draft.userId
        ? "User Required"
        : !draft.amount.trim() || !draft.description.trim()
          ? "Missing Information: Please fill in amount and description"
          : null,
    );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Eye aria-hidden />
          Create with Preview
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Create Transaction with Preview</DialogTitle>
          <DialogDescription>
            Check the credit exactly as the customer will see it before you create it.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,19rem)]"
          onSubmit={onSubmit}
          noValidate
        >
          <TransactionFields
            idPrefix="preview-transaction"
            draft={draft}
            onChange={(next, field) => {
              setDraft(next);
              credit.edit(field);
            }}
            errors={credit.errors}
            disabled={credit.isPending}
          />
          <PreviewCard draft={draft} previewId={previewId} />
          <DialogActions
            isPending={credit.isPending}
            pendingLabel="Creating"
            submitLabel={creditSubmitLabel(draft)}
            onCancel={() => setOpen(false)}
            className="md:col-span-2"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
