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
import { useRevealDateOfBirth } from "@/web/features/kyc/admin/api/reveal-date-of-birth";
import { useRevealSsn } from "@/web/features/kyc/admin/api/reveal-ssn";

/** How long a revealed value stays on screen before it is hidden again. */
const SHOW_SECONDS = 60;

/** What one sensitive field's reveal needs: its words, and the audited call that answers it shown in full. */
interface RevealField {
  /** "SSN", "date of birth": in the trigger's label and the dialog's words. */
  name: string;
  title: string;
  /** Said once it is shown, e.g. "Social Security number". */
  shownAs: string;
  idPrefix: string;
  failure: string;
  useReveal: () => {
    mutateAsync: (input: { id: string; reason: string }) => Promise<string>;
    isPending: boolean;
    reset: () => void;
  };
}

/**
 * "Reveal" beside a masked SSN or date of birth: asks why, shows the full value (the server audits the reveal
 * and the customer sees it in Settings), and forgets it after a minute or when the dialog closes.
 */
function SensitiveRevealDialog({
  field,
  kycId,
  applicant,
}: {
  field: RevealField;
  kycId: string;
  applicant: string;
}) {
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [value, setValue] = useState<string | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(SHOW_SECONDS);
  const reveal = field.useReveal();
  const fieldId = `${field.idPrefix}-reason-${kycId}`;

  const onOpenChange = (open: boolean) => {
    setOpen(open);
    if (!open) {
      setReason("");
      setFieldError(null);
      setValue(null);
      reveal.reset();
    }
  };

  useEffect(() => {
    if (!value) return;
    setSecondsLeft(SHOW_SECONDS);
    const startedAt = Date.now();
    const timer = setInterval(() => {
      const left = SHOW_SECONDS - Math.floor((Date.now() - startedAt) / 1000);
      if (left <= 0) {
        setValue(null);
        setOpen(false);
        setReason("");
      } else setSecondsLeft(left);
    }, 1000);
    return () => clearInterval(timer);
  }, [value]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = auditReason.safeParse(reason);
    if (!parsed.success) {
      setFieldError(AUDIT_MESSAGES.reasonRequired);
      return;
    }
    setFieldError(null);
    reveal.mutateAsync({ id: kycId, reason: parsed.data }).then(
      (value) => setValue(value),
      (error) => {
        if (handleAdminSessionExpired(error)) return;
        setFieldError(errorMessage(error, field.failure));
      },
    );
  };

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2"
          aria-label={`Reveal the ${field.name} of ${applicant}`}
        >
          <Eye aria-hidden />
          Reveal
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{field.title}</DialogTitle>
          <DialogDescription>
            {value
              ? `${applicant}'s ${field.shownAs}. It hides again when you close this or in a minute.`
              : `Every reveal is recorded with your role and reason, and ${applicant} can see it in their settings.`}
          </DialogDescription>
        </DialogHeader>
        {value ? (
          <div className="grid gap-4">
            <div className="grid gap-1 rounded-lg border border-line bg-canvas p-4 text-center">
              <p
                className="font-mono text-2xl font-semibold tracking-wider text-ink tabular-nums"
                aria-live="polite"
              >
                {value}
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
                placeholder={`e.g. Matching the ${field.name} against the licence.`}
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
                Reveal {field.name}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

const SSN_FIELD: RevealField = {
  name: "SSN",
  title: "Reveal full SSN",
  shownAs: "Social Security number",
  idPrefix: "ssn",
  failure: "Failed to reveal the SSN",
  useReveal: () => {
    const reveal = useRevealSsn();
    return {
      mutateAsync: (input) => reveal.mutateAsync(input).then((answer) => answer.ssn),
      isPending: reveal.isPending,
      reset: reveal.reset,
    };
  },
};

/** YYYY-MM-DD as the licence prints it, MM/DD/YYYY. */
const usDate = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

const DATE_OF_BIRTH_FIELD: RevealField = {
  name: "date of birth",
  title: "Reveal full date of birth",
  shownAs: "date of birth",
  idPrefix: "dob",
  failure: "Failed to reveal the date of birth",
  useReveal: () => {
    const reveal = useRevealDateOfBirth();
    return {
      mutateAsync: (input) =>
        reveal
          .mutateAsync(input)
          .then((answer) => (answer.dateOfBirth ? usDate(answer.dateOfBirth) : "Not recorded")),
      isPending: reveal.isPending,
      reset: reveal.reset,
    };
  },
};

export function SsnRevealDialog(props: { kycId: string; applicant: string }) {
  return <SensitiveRevealDialog field={SSN_FIELD} {...props} />;
}

/** The date of birth to match against the licence: compliance only, audited like the SSN. */
export function DateOfBirthRevealDialog(props: { kycId: string; applicant: string }) {
  return <SensitiveRevealDialog field={DATE_OF_BIRTH_FIELD} {...props} />;
}
