import { XCircle } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AdminKycApplication } from "@/contract/admin-onboarding";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/web/components/ui/dialog";
import { Textarea } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { handleAdminSessionExpired } from "@/web/features/admin/kyc/admin-session-expired";
import { useRejectKycApplication } from "@/web/features/admin/kyc/api/reject-kyc-application";

/** Spec §2/§5: 'Reject KYC Application' — a reason is required (non-blank after trimming) before rejecting. */
export function RejectKycDialog({ application }: { application: AdminKycApplication }) {
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const reject = useRejectKycApplication();
  const name = `${application.firstName} ${application.lastName}`;
  const trimmed = reason.trim();

  const onOpenChange = (open: boolean) => {
    setOpen(open);
    if (!open) setReason("");
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    reject.mutateAsync({ id: application.id, notes: trimmed }).then(
      () => onOpenChange(false),
      (error) => {
        if (handleAdminSessionExpired(error)) return;
        toast({
          title: "Error",
          description: errorMessage(error, "Failed to update KYC status"),
          variant: "destructive",
        });
      },
    );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button
          variant="secondary"
          size="sm"
          className="text-negative"
          aria-label={`Reject application from ${name}`}
        >
          <XCircle aria-hidden />
          Reject
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reject KYC Application</DialogTitle>
          <DialogDescription>
            {name} will be told the application was not approved, with this reason, and can apply again.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`reject-reason-${application.id}`}>Reason for rejection</Label>
            <Textarea
              id={`reject-reason-${application.id}`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              placeholder="e.g. The driving license photo is unreadable."
              maxLength={2000}
              rows={4}
              required
              aria-describedby={`reject-reason-${application.id}-hint`}
            />
            <p id={`reject-reason-${application.id}-hint`} className="text-xs text-ink-subtle">
              Required. The applicant sees this.
            </p>
          </div>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={reject.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!trimmed || reject.isPending}>
              {reject.isPending ? <Spinner className="size-4 text-white" label="Rejecting" /> : null}
              Reject Application
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
