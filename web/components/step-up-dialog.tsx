import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import type { PasskeyOptionsResponse, SecondFactorMethod, SecondFactorProof } from "@/contract/security";
import { SecondFactorForm } from "@/web/components/second-factor-form";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";

/** Asks for a second factor before a sensitive action; `onProof` sends it wherever the action needs it. */
export function StepUpDialog({
  open,
  onOpenChange,
  methods,
  onProof,
  getPasskeyOptions,
  title = "Verify it's you",
  description = "For your security, confirm this change with your second factor.",
  submitLabel = "Verify",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  methods: readonly SecondFactorMethod[];
  onProof: (proof: SecondFactorProof) => Promise<void>;
  getPasskeyOptions?: () => Promise<PasskeyOptionsResponse>;
  title?: string;
  description?: ReactNode;
  submitLabel?: string;
  /** A summary of what is being confirmed (e.g. the transfer), shown above the code. */
  children?: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-brand-50 text-brand-700">
            <ShieldCheck className="size-5" aria-hidden />
          </div>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
        {open ? (
          <SecondFactorForm
            methods={methods}
            onProof={onProof}
            getPasskeyOptions={getPasskeyOptions}
            submitLabel={submitLabel}
            onCancel={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
