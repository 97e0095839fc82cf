import { ShieldBan } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { AdminUser } from "@/contract/admin";
import { COOLDOWN_ADJECTIVES, SELF_LIMIT_MESSAGES } from "@/contract/self-limits";
import { REVIEWER_SEES_REASON } from "@/web/components/admin/reason-hints";
import { useStaffCapability } from "@/web/components/admin/use-staff-capability";
import { FormField, fieldAria } from "@/web/components/form-field";
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
import { Spinner } from "@/web/components/ui/spinner";
import { useCustomerSelfLimits, useLiftSendBlock } from "@/web/features/users/admin/api/send-block-lift";

/**
 * The customer's own block on crypto sends, for compliance (decision 047): shown only while it holds, with the
 * one way staff can end it, a lift proposed with the reason and how the customer's identity was re-verified, which
 * a second compliance member approves in the Approvals tab.
 */
export function SendBlockSection({ user }: { user: AdminUser }) {
  const mayLift = useStaffCapability("liftSendBlock");
  const limits = useCustomerSelfLimits(user.id, mayLift && !user.isAdmin);
  if (!mayLift || !limits.data?.sendsBlocked) return null;
  const data = limits.data;
  return (
    <section
      aria-labelledby={`send-block-${user.id}`}
      className="grid gap-3 rounded-lg border border-line bg-canvas p-4 text-sm text-ink"
    >
      <h3 id={`send-block-${user.id}`} className="flex items-center gap-2 font-semibold">
        <ShieldBan className="size-4 text-brand-700" aria-hidden />
        Crypto sends blocked by the customer
      </h3>
      <p>
        {data.blockOn && data.cooldown
          ? `On, with a ${COOLDOWN_ADJECTIVES[data.cooldown]} cooldown once they switch it off.`
          : `On until ${data.blockedUntilText}.`}{" "}
        Payments by $tag are not blocked. Lift it only when the customer asks and you have re-verified who
        they are.
      </p>
      <div>
        <LiftSendBlockDialog user={user} />
      </div>
    </section>
  );
}

function LiftSendBlockDialog({ user }: { user: AdminUser }) {
  const lift = useLiftSendBlock(user.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [identityCheck, setIdentityCheck] = useState("");
  const [errors, setErrors] = useState<{ reason?: string; identityCheck?: string; form?: string }>({});
  const ids = { reason: `lift-block-reason-${user.id}`, identity: `lift-block-identity-${user.id}` };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      ...(reason.trim() ? {} : { reason: SELF_LIMIT_MESSAGES.liftReasonRequired }),
      ...(identityCheck.trim() ? {} : { identityCheck: SELF_LIMIT_MESSAGES.identityCheckRequired }),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    lift.mutate(
      { reason, identityCheck },
      {
        onSuccess: () => setOpen(false),
        onError: (error) => setErrors({ form: errorMessage(error, "Please try again") }),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary">Lift the block…</Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>
            Lift {user.firstName} {user.lastName}'s block?
          </DialogTitle>
          <DialogDescription>
            The block and its cooldown end once a second compliance member approves. The customer is told.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField
            id={ids.identity}
            label="How you re-verified their identity"
            error={errors.identityCheck}
          >
            <Textarea
              id={ids.identity}
              rows={2}
              maxLength={500}
              placeholder="Video call: matched the licence photo and date of birth"
              {...fieldAria(ids.identity, { error: errors.identityCheck })}
              value={identityCheck}
              onChange={(e) => setIdentityCheck(e.target.value)}
            />
          </FormField>
          <FormField id={ids.reason} label="Reason" hint={REVIEWER_SEES_REASON} error={errors.reason}>
            <Textarea
              id={ids.reason}
              rows={2}
              maxLength={500}
              {...fieldAria(ids.reason, { hint: true, error: errors.reason })}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </FormField>
          {errors.form ? (
            <p className="text-sm text-negative" role="alert">
              {errors.form}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={lift.isPending}>
              {lift.isPending ? <Spinner className="size-4 text-white" label="Sending" /> : null}
              Send for approval
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
