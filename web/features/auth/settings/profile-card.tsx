import { AlertTriangle, BadgeCheck, Phone } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { AUTH_MESSAGES, type CurrentUser } from "@/contract/auth";
import { BRAND } from "@/contract/brand";
import { dismissFieldToast, toastApiError, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useUpdatePhone } from "@/web/features/auth/api/update-phone";
import { formatDate, formatHandle } from "@/web/lib/format";
import { PhoneNumber } from "@/web/lib/phone-display";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="min-w-0 text-sm font-medium text-ink">{children}</dd>
    </div>
  );
}

function AddPhoneForm() {
  const [phone, setPhone] = useState("");
  const update = useUpdatePhone();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const phoneNumber = phone.trim();
    if (!phoneNumber) return toastFieldError(AUTH_MESSAGES.phoneRequired);
    update.mutate(
      { phoneNumber },
      {
        onSuccess: () => toast({ title: "Phone number added", description: "Your phone number is saved." }),
        onError: (error) => toastApiError(error, "Failed to update phone number"),
      },
    );
  };
  return (
    <form className="grid gap-3" onSubmit={onSubmit} noValidate>
      <p className="flex items-start gap-2 rounded-lg bg-pending-soft p-3 text-sm font-normal text-pending">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />A phone number is required for account
        access and for applying for a checking account. It cannot be changed once added.
      </p>
      <Label htmlFor="settings-phone" className="sr-only">
        Phone number
      </Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="settings-phone"
          type="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          value={phone}
          onChange={(e) => {
            setPhone(e.target.value);
            dismissFieldToast();
          }}
        />
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? (
            <Spinner className="size-4 text-white" label="Saving" />
          ) : (
            <Phone aria-hidden />
          )}
          Add Phone Number
        </Button>
      </div>
    </form>
  );
}

export function ProfileCard({ user }: { user: CurrentUser }) {
  const isVerified = user.isEmailVerified || user.isVerified;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Information</CardTitle>
        <CardDescription>Your account details.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-line">
          <Row label="Name">
            {user.firstName} {user.lastName}
          </Row>
          <Row label="Email">
            <span className="inline-flex max-w-full items-center gap-1.5">
              <span className="truncate">{user.email}</span>
              {isVerified ? (
                <BadgeCheck className="size-4 shrink-0 text-positive" aria-label="Verified" role="img" />
              ) : null}
            </span>
          </Row>
          <Row label={BRAND.handleLabel}>{formatHandle(user.pillarTag)}</Row>
          <Row label="Phone number">
            {user.phoneNumber ? (
              <span className="grid gap-0.5">
                <span className="tabular-nums">
                  <PhoneNumber stored={user.phoneNumber} />
                </span>
                <span className="text-xs font-normal text-ink-subtle">{AUTH_MESSAGES.phoneLocked}</span>
              </span>
            ) : (
              <AddPhoneForm />
            )}
          </Row>
          <Row label="Member since">{formatDate(user.createdAt)}</Row>
        </dl>
      </CardContent>
    </Card>
  );
}
