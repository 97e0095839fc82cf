import { Eye, EyeOff } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { AUDIT_MESSAGES, auditReason } from "@/contract/audit";
import { handleAdminSessionExpired } from "@/web/components/admin/admin-session-expired";
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
import { useRevealSsn } from "@/web/features/kyc/admin/api/reveal-ssn";

/** How long a revealed SSN stays on screen before it is hidden again. */
const SHOW_SECONDS = 60;

/**
 * "Reveal" beside a masked SSN: asks why, shows the full number (the server audits the reveal and the
 * customer sees it in Settings), and forgets it after a minute or when the dialog closes.
 */
export function SsnRevealDialog({ kycId, applicant }: { kycId: string; applicant: string }) {
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [ssn, setSsn] = useState<string | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(SHOW_SECONDS);
  const reveal = useRevealSsn();
  const fieldId = `ssn-reason-${kycId}`;

  const onOpenChange = (open: boolean) => {
    setOpen(open);
    if (!open) {
      setReason("");
      setFieldError(null);
      setSsn(null);
      reveal.reset();
    }
  };

  useEffect(() => {
    if (!ssn) return;
    setSecondsLeft(SHOW_SECONDS);
    const startedAt = Date.now();
    const timer = setInterval(() => {
      const left = SHOW_SECONDS - Math.floor((Date.now() - startedAt) / 1000);
      if (left <= 0) {
        setSsn(null);
        setOpen(false);
        setReason("");
      } else setSecondsLeft(left);
    }, 1000);
    return () => clearInterval(timer);
  }, [ssn]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = auditReason.safeParse(reason);
    if (!parsed.success) {
      setFieldError(AUDIT_MESSAGES.reasonRequired);
      return;
    }
    setFieldError(null);
    reveal.mutateAsync({ id: kycId, reason: parsed.data }).then(
      (answer) => setSsn(answer.ssn),
      (error) => {
        if (handleAdminSessionExpired(error)) return;
        setFieldError(errorMessage(error, "Failed to reveal the SSN"));
      },
    );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="h-7 px-2" aria-label={`Reveal the SSN of ${applicant}`}>
          <Eye aria-hidden />
          Reveal
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reveal full SSN</DialogTitle>
          <DialogDescription>
            {ssn
              ? `${applicant}'s Social Security number. It hides again when you close this or in a minute.`
              : `Every reveal is recorded with your role and reason, and ${applicant} can see it in their settings.`}
          </DialogDescription>
        </DialogHeader>
        {ssn ? (
          <div className="grid gap-4">
            <div className="grid gap-1 rounded-lg border border-line bg-canvas p-4 text-center">
              <p
                className="font-mono text-2xl font-semibold tracking-wider text-ink tabular-nums"
                aria-live="polite"
              >
                {ssn}
              </p>
              <p className="text-xs text-ink-muted tabular-nums">Hides in {secondsLeft} s</p>
            </div>
            <DialogFooter>
              <Button variant="secondary" onClick={() => onOpenChange(false)}>
                <EyeOff aria-hidden />
                Hide now
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form className="grid gap-4" onSubmit={onSubmit} noValidate>
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId}>Reason</Label>
              <Textarea
                id={fieldId}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                placeholder="e.g. The customer asked us to confirm the number on file."
                maxLength={500}
                rows={3}
                required
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={`${fieldId}-hint`}
              />
              <p
                id={`${fieldId}-hint`}
                className={fieldError ? "text-xs text-negative" : "text-xs text-ink-subtle"}
                role={fieldError ? "alert" : undefined}
              >
                {fieldError ?? "Required, 3 to 500 characters. The customer sees it."}
              </p>
            </div>
            <DialogFooter>
              <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={reveal.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={reveal.isPending}>
                {reveal.isPending ? (
                  <Spinner className="size-4 text-white" label="Revealing" />
                ) : (
                  <Eye aria-hidden />
                )}
                Reveal SSN
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
