import { BellRing, Mail } from "lucide-react";
import { type FormEvent, useState } from "react";
import { ADMIN_MESSAGES } from "@/contract/admin";
import { FormField } from "@/web/components/form-field";
import { errorMessage, toastError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useSendPaymentNotification } from "@/web/features/back-office/api/send-payment-notification";
import { useSendTestEmail } from "@/web/features/back-office/api/send-test-email";
import { failureOf, isUnauthorized } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";

/**
 * Samples go to staff only (docs/architecture.md "Design notes"): start from the signed-in staff member's own
 * address.
 */
function useOwnEmail(): string {
  return useCurrentUser().data?.email ?? "";
}

/** Where the samples may go, under both forms' e-mail fields. */
const STAFF_ONLY_HINT = "Staff addresses only. The e-mail is marked [TEST] in its subject and body.";

function TestEmailForm() {
  const ownEmail = useOwnEmail();
  const [typedEmail, setEmail] = useState<string | null>(null);
  const email = typedEmail ?? ownEmail;
  const [firstName, setFirstName] = useState("");
  const send = useSendTestEmail();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !firstName.trim()) return toastError(ADMIN_MESSAGES.testEmailMissing);
    send.mutate(
      { email: email.trim(), firstName: firstName.trim() },
      {
        onError: (error) =>
          !isUnauthorized(error) &&
          toast(
            failureOf("POST /api/admin/test-email", error) === "test_mail_staff_only"
              ? { title: ADMIN_MESSAGES.testMailStaffOnly, variant: "destructive" }
              : {
                  title: "Failed to send test email. Check email service configuration.",
                  variant: "destructive",
                },
          ),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Mail className="size-4 text-brand-700" aria-hidden />
          Test Email
        </CardTitle>
        <CardDescription>Sends a sample 6-digit verification code e-mail to a staff address.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField id="test-email" label="Email" hint={STAFF_ONLY_HINT}>
            <Input
              id="test-email"
              type="email"
              aria-describedby="test-email-hint"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </FormField>
          <FormField id="test-first-name" label="First name">
            <Input id="test-first-name" value={firstName} onChange={(e) => setFirstName(e.target.value)} />
          </FormField>
          <Button type="submit" className="sm:justify-self-start" disabled={send.isPending}>
            {send.isPending ? <Spinner className="size-4 text-white" label="Sending" /> : null}
            Send Test Email
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

const EMPTY_NOTIFICATION = { email: "", recipientName: "", fromName: "", amount: "" };

function PaymentNotificationForm() {
  const ownEmail = useOwnEmail();
  const [typed, setForm] = useState(EMPTY_NOTIFICATION);
  const [isEmailTyped, setEmailTyped] = useState(false);
  const form = isEmailTyped ? typed : { ...typed, email: ownEmail };
  const send = useSendPaymentNotification();
  const set = (field: keyof typeof EMPTY_NOTIFICATION) => (value: string) => {
    if (field === "email") setEmailTyped(true);
    setForm((f) => ({ ...f, [field]: value }));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = {
      email: form.email.trim(),
      recipientName: form.recipientName.trim(),
      fromName: form.fromName.trim(),
      amount: form.amount.trim(),
    };
    if (Object.values(input).some((v) => !v)) return toastError(ADMIN_MESSAGES.paymentNotificationMissing);
    send.mutate(input, {
      onError: (error) =>
        !isUnauthorized(error) &&
        toast({
          title: errorMessage(error, "Failed to send payment notification"),
          variant: "destructive",
        }),
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing className="size-4 text-brand-700" aria-hidden />
          Payment Notification
        </CardTitle>
        <CardDescription>
          Sends a sample "payment received" e-mail to a staff address. No money moves.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <FormField id="pn-email" label="Email" hint={STAFF_ONLY_HINT}>
            <Input
              id="pn-email"
              type="email"
              aria-describedby="pn-email-hint"
              value={form.email}
              onChange={(e) => set("email")(e.target.value)}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="pn-recipient" label="Recipient name">
              <Input
                id="pn-recipient"
                value={form.recipientName}
                onChange={(e) => set("recipientName")(e.target.value)}
              />
            </FormField>
            <FormField id="pn-from" label="From name">
              <Input id="pn-from" value={form.fromName} onChange={(e) => set("fromName")(e.target.value)} />
            </FormField>
          </div>
          <FormField id="pn-amount" label="Amount (USD)">
            <Input
              id="pn-amount"
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              placeholder="0.00"
              className="tabular-nums"
              value={form.amount}
              onChange={(e) => set("amount")(e.target.value)}
            />
          </FormField>
          <Button type="submit" className="sm:justify-self-start" disabled={send.isPending}>
            {send.isPending ? <Spinner className="size-4 text-white" label="Sending" /> : null}
            Send Payment Notification
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function EmailTestTab() {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <TestEmailForm />
      <PaymentNotificationForm />
    </div>
  );
}
