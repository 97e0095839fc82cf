import { Settings2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import {
  ACCOUNT_NUMBER_MAX,
  ACCOUNT_NUMBER_MIN,
  type AdminAccountRequest,
  DEFAULT_ROUTING_NUMBER,
  ONBOARDING_ADMIN_MESSAGES,
  type UpdateAccountRequestInput,
} from "@/contract/admin-onboarding";
import { ACCOUNT_REQUEST_STATUSES, type AccountRequestStatus, type KycStatus } from "@/contract/kyc";
import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
import { AdminNotesField, DialogActions } from "@/web/components/admin/dialog-parts";
import { toastError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { Input, inputClassName, Textarea } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { toast } from "@/web/components/ui/use-toast";
import { useUpdateAccountRequest } from "@/web/features/kyc/admin/api/update-account-request";
import { cn } from "@/web/lib/cn";

const KYC_STATUS_LABELS: Record<KycStatus, string> = {
  pending: "Pending Review",
  approved: "Approved",
  rejected: "Rejected",
};

export const ACCOUNT_REQUEST_STATUS_LABELS: Record<AccountRequestStatus, string> = {
  pending: "Pending",
  in_review: "In Review",
  approved: "Approved",
  rejected: "Rejected",
};

/** A random 9-digit account number, 100000000 to 999999999 (the server re-checks it is unused). */
function randomAccountNumber(): string {
  const span = ACCOUNT_NUMBER_MAX - ACCOUNT_NUMBER_MIN + 1;
  const [random = 0] = crypto.getRandomValues(new Uint32Array(1));
  return String(ACCOUNT_NUMBER_MIN + (random % span));
}

const digits = (value: string) => value.replace(/\D/g, "").slice(0, 9);

interface DraftState {
  status: AccountRequestStatus;
  statusMessage: string;
  adminNotes: string;
  accountNumber: string;
  routingNumber: string;
}

function draftFrom(request: AdminAccountRequest): DraftState {
  return {
    status: request.status,
    statusMessage: request.statusMessage ?? "",
    adminNotes: request.adminNotes ?? "",
    accountNumber: request.accountNumber ?? "",
    routingNumber: request.routingNumber ?? DEFAULT_ROUTING_NUMBER,
  };
}

/** 'Manage Account Request': any status, a message to the customer, internal notes; numbers on approval. */
export function ManageAccountRequestDialog({ request }: { request: AdminAccountRequest }) {
  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<DraftState>(() => draftFrom(request));
  const update = useUpdateAccountRequest();
  const name = `${request.user.firstName} ${request.user.lastName}`;
  const id = `account-request-${request.id}`;
  // The server keeps an account's numbers once assigned; they are shown, not edited.
  const hasNumbers = Boolean(request.accountNumber);
  const isApproving = draft.status === "approved";
  // The server refuses to open an account before the identity check is approved (409 identityNotApproved).
  const isIdentityBlocking = isApproving && request.status !== "approved" && request.kycStatus !== "approved";

  const onOpenChange = (open: boolean) => {
    if (open) setDraft(draftFrom(request));
    setOpen(open);
  };
  const set = <K extends keyof DraftState>(field: K, value: DraftState[K]) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isIdentityBlocking) return;
    const input: UpdateAccountRequestInput = {
      status: draft.status,
      statusMessage: draft.statusMessage.trim() || null,
      adminNotes: draft.adminNotes.trim() || null,
    };
    if (isApproving && !hasNumbers) {
      if (!/^[1-9]\d{8}$/.test(draft.accountNumber))
        return toastError(ONBOARDING_ADMIN_MESSAGES.accountNumberInvalid);
      if (!/^\d{9}$/.test(draft.routingNumber))
        return toastError(ONBOARDING_ADMIN_MESSAGES.routingNumberInvalid);
      input.accountNumber = draft.accountNumber;
      input.routingNumber = draft.routingNumber;
      input.approvedAt = new Date().toISOString();
    }
    update.mutateAsync({ id: request.id, input }).then(
      () => setOpen(false),
      (error) => {
        if (handleAdminSessionExpired(error)) return;
        const detail = error instanceof Error && error.message ? error.message : undefined;
        toast({ title: "Failed to update account request", description: detail, variant: "destructive" });
      },
    );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={`Manage account request from ${name}`}>
          <Settings2 aria-hidden />
          Manage
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Manage Account Request</DialogTitle>
          <DialogDescription>
            {name} · {request.user.email} · <span className="capitalize">{request.accountType}</span>
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-status`}>Status</Label>
            <select
              id={`${id}-status`}
              value={draft.status}
              onChange={(e) => {
                const status = e.target.value as AccountRequestStatus;
                setDraft((d) => ({
                  ...d,
                  status,
                  // Approving prefills a random account number and the default routing number.
                  accountNumber:
                    status === "approved" && !d.accountNumber ? randomAccountNumber() : d.accountNumber,
                  routingNumber: d.routingNumber || DEFAULT_ROUTING_NUMBER,
                }));
              }}
              className={cn(inputClassName, "appearance-auto")}
            >
              {ACCOUNT_REQUEST_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {ACCOUNT_REQUEST_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          {isIdentityBlocking ? (
            <p
              id={`${id}-identity`}
              role="alert"
              className="rounded-lg bg-negative-soft p-3 text-sm text-negative"
            >
              {ONBOARDING_ADMIN_MESSAGES.identityNotApproved}. Identity check:{" "}
              {request.kycStatus ? KYC_STATUS_LABELS[request.kycStatus] : "Not submitted"}.
            </p>
          ) : isApproving ? (
            <div className="grid gap-4 rounded-lg bg-canvas p-4 sm:grid-cols-2">
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-account-number`}>Account number</Label>
                <Input
                  id={`${id}-account-number`}
                  inputMode="numeric"
                  maxLength={9}
                  className="tabular-nums"
                  value={hasNumbers ? (request.accountNumber ?? "") : draft.accountNumber}
                  disabled={hasNumbers}
                  onChange={(e) => set("accountNumber", digits(e.target.value))}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-routing-number`}>Routing number</Label>
                <Input
                  id={`${id}-routing-number`}
                  inputMode="numeric"
                  maxLength={9}
                  className="tabular-nums"
                  value={hasNumbers ? (request.routingNumber ?? "") : draft.routingNumber}
                  disabled={hasNumbers}
                  onChange={(e) => set("routingNumber", digits(e.target.value))}
                />
              </div>
              <p className="text-xs text-ink-muted sm:col-span-2">
                {hasNumbers
                  ? "This account already has its numbers; they stay the same."
                  : "Approving opens the account with these numbers and e-mails the customer."}
              </p>
            </div>
          ) : null}
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-message`}>Status message</Label>
            <Textarea
              id={`${id}-message`}
              rows={3}
              maxLength={1000}
              placeholder="Shown to the customer on their dashboard"
              aria-describedby={`${id}-message-hint`}
              value={draft.statusMessage}
              onChange={(e) => set("statusMessage", e.target.value)}
            />
            <p id={`${id}-message-hint`} className="text-xs text-ink-subtle">
              The customer sees this.
            </p>
          </div>
          <AdminNotesField
            id={`${id}-notes`}
            hint="Only admins see these."
            value={draft.adminNotes}
            onChange={(value) => set("adminNotes", value)}
          />
          <DialogActions
            isPending={update.isPending}
            isSubmitDisabled={isIdentityBlocking}
            submitLabel="Update Request"
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
