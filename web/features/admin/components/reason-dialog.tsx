import { type FormEvent, type ReactNode, useState } from "react";
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

/**
 * Asks for a reason before an action that a second staff member reviews (or that rejects one). `onConfirm`
 * resolves true when the dialog may close.
 */
export function ReasonDialog({
  id,
  trigger,
  title,
  description,
  label = "Reason",
  hint = "Required. The staff member who reviews this sees it.",
  confirmLabel,
  isPending,
  destructive = false,
  onConfirm,
}: {
  id: string;
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  label?: string;
  hint?: string;
  confirmLabel: string;
  isPending: boolean;
  destructive?: boolean;
  onConfirm: (reason: string) => Promise<boolean>;
}) {
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
            <Label htmlFor={id}>{label}</Label>
            <Textarea
              id={id}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={500}
              rows={3}
              required
              aria-describedby={`${id}-hint`}
            />
            <p id={`${id}-hint`} className="text-xs text-ink-subtle">
              {hint}
            </p>
          </div>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant={destructive ? "destructive" : "primary"}
              disabled={!trimmed || isPending}
            >
              {isPending ? <Spinner className="size-4 text-white" label="Sending" /> : null}
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
