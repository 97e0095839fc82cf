import { type FormEvent, useEffect, useState } from "react";
import type { TotpEnrollResponse } from "@/contract/security";
import { FormField } from "@/web/components/form-field";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { useConfirmTotp } from "@/web/features/auth/api/confirm-totp";
import { cleanCode } from "@/web/lib/one-time-code";

/** The key in groups of four, as authenticator apps show it and people type it. */
export function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/** The otpauth:// URI as a QR code, drawn here with the `qrcode` package (loaded only on this step). */
function QrCode({ uri }: { uri: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    import("qrcode")
      .then((qr) => qr.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }))
      .then((text) => isCurrent && setSvg(text))
      .catch(() => isCurrent && setFailed(true));
    return () => {
      isCurrent = false;
    };
  }, [uri]);
  if (failed) {
    return (
      <p className="text-sm text-ink-muted">The QR code could not be drawn. Enter the key below instead.</p>
    );
  }
  if (!svg) return <Skeleton className="size-44" role="status" aria-label="Drawing the QR code" />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt="QR code to scan with your authenticator app"
      className="size-44 rounded-lg border border-line bg-white p-2"
    />
  );
}

/** Scan (or type the key), then prove it works with a first code. */
export function TotpSetup({
  enrolment,
  onEnabled,
  onCancel,
}: {
  enrolment: TotpEnrollResponse;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmTotp();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError("Enter the 6-digit code your app shows");
      return;
    }
    setError(null);
    confirm.mutate(
      { code },
      {
        onSuccess: (data) => onEnabled(data.recoveryCodes),
        onError: (caught) => {
          setError(errorMessage(caught, "That code did not work. Try the next one."));
          setCode("");
        },
      },
    );
  };
  return (
    <form className="grid gap-5" onSubmit={onSubmit} noValidate>
      <ol className="grid gap-5 text-sm text-ink">
        <li className="grid gap-3">
          <p>
            <span className="font-medium">1. Scan this QR code</span> with an authenticator app (such as
            1Password, Google Authenticator or Authy).
          </p>
          <QrCode uri={enrolment.otpauthUrl} />
        </li>
        <li className="grid gap-2">
          <p>
            <span className="font-medium">Can't scan it?</span> Enter this key in the app instead:
          </p>
          <code
            data-testid="totp-manual-key"
            className="rounded-lg border border-line bg-canvas px-3 py-2 font-mono text-sm break-all tracking-wider"
          >
            {groupKey(enrolment.secret)}
          </code>
        </li>
        <li>
          <FormField
            id="totp-first-code"
            label="2. Enter the 6-digit code from the app"
            hint="The code changes every 30 seconds."
          >
            <Input
              id="totp-first-code"
              value={code}
              onChange={(e) => setCode(cleanCode(e.target.value))}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="123456"
              className="max-w-40 font-mono tracking-[0.3em] tabular-nums"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "totp-first-code-hint totp-first-code-error" : "totp-first-code-hint"}
            />
          </FormField>
        </li>
      </ol>
      {error ? (
        <p id="totp-first-code-error" role="alert" className="text-sm font-medium text-negative">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending ? <Spinner className="size-4 text-white" label="Checking the code" /> : null}
          Turn on
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
