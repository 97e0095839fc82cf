import { Trash2 } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
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
import { Button, type ButtonProps } from "@/web/components/ui/button";
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

/** The red ghost button a row uses to remove or delete something. */
const DANGER_TRIGGER = "text-negative hover:bg-negative-soft hover:text-negative";

/** A reason the confirmation asks for (non-blank after trimming) before it confirms. */
export interface ConfirmReason {
  id: string;
  label: string;
  hint: string;
  placeholder?: string;
  maxLength?: number;
  rows?: number;
}

interface ConfirmButtonBase {
  /** What the trigger button shows (icon and words; with "danger", the word shown beside the bin on wide screens). */
  children: ReactNode;
  /** "danger" is the small red ghost button, with a bin, that removes or deletes a row. */
  variant?: ButtonProps["variant"] | "danger";
  size?: ButtonProps["size"];
  className?: string;
  "aria-label"?: string;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  isPending: boolean;
}

interface PlainConfirm extends ConfirmButtonBase {
  reason?: undefined;
  /** Runs as the dialog closes. */
  onConfirm: () => unknown;
}

interface ReasonConfirm extends ConfirmButtonBase {
  reason: ConfirmReason;
  /** The confirm button is red (a rejection) instead of the brand colour. */
  destructive?: boolean;
  /** What the spinner says to screen readers while the confirmation is sent. */
  pendingLabel?: string;
  /** Resolves true when the dialog may close (false keeps it open, the reason kept, to try again). */
  onConfirm: (reason: string) => Promise<boolean>;
}

export type ConfirmButtonProps = PlainConfirm | ReasonConfirm;

/**
 * A button that asks before it acts: a confirm dialog, or (with `reason`) a dialog that asks why. The trigger is
 * disabled while the action is pending.
 */
export function ConfirmButton(props: ConfirmButtonProps) {
  const { variant, size, className, isPending } = props;
  const trigger = (
    <Button
      variant={variant === "danger" ? "ghost" : variant}
      size={variant === "danger" ? "sm" : size}
      className={variant === "danger" ? DANGER_TRIGGER : className}
      disabled={isPending}
      aria-label={props["aria-label"]}
    >
      {variant === "danger" ? (
        <>
          <Trash2 aria-hidden />
          <span className="hidden sm:inline">{props.children}</span>
        </>
      ) : (
        props.children
      )}
    </Button>
  );
  if (props.reason) return <ReasonConfirmDialog {...props} trigger={trigger} />;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{props.title}</AlertDialogTitle>
          <AlertDialogDescription>{props.description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{props.cancelLabel ?? "Cancel"}</AlertDialogCancel>
          <AlertDialogAction onClick={() => props.onConfirm()}>{props.confirmLabel}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function ReasonConfirmDialog({
  trigger,
  reason: field,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  isPending,
  destructive = false,
  pendingLabel = "Sending",
  onConfirm,
}: ReasonConfirm & { trigger: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const trimmed = reason.trim();
  const onOpenChange = (open: boolean) => {
    setOpen(open);
    if (!open) setReason("");
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    void onConfirm(trimmed).then((done) => {
      if (done) onOpenChange(false);
    });
  };
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={field.id}>{field.label}</Label>
            <Textarea
              id={field.id}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              placeholder={field.placeholder}
              maxLength={field.maxLength ?? 500}
              rows={field.rows ?? 3}
              required
              aria-describedby={`${field.id}-hint`}
            />
            <p id={`${field.id}-hint`} className="text-xs text-ink-subtle">
              {field.hint}
            </p>
          </div>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isPending}>
              {cancelLabel}
            </Button>
            <Button
              type="submit"
              variant={destructive ? "destructive" : "primary"}
              disabled={!trimmed || isPending}
            >
              {isPending ? <Spinner className="size-4 text-white" label={pendingLabel} /> : null}
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
