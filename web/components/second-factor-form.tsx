import { KeyRound } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import type { PasskeyOptionsResponse, SecondFactorMethod, SecondFactorProof } from "@/contract/security";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Spinner } from "@/web/components/ui/spinner";
import { cleanCode } from "@/web/lib/one-time-code";

const TOTP_PATTERN = /^\d{6}$/;
const RECOVERY_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;

/**
 * "Verify it's you": a 6-digit authenticator code, a recovery code, or a passkey. Used by the sign-in
 * verify step and the step-up dialog; `onProof` throws to show its error here.
 */
export function SecondFactorForm({
  methods,
  onProof,
  getPasskeyOptions,
  submitLabel = "Verify",
  onCancel,
  cancelLabel = "Cancel",
  autoFocus = true,
}: {
  methods: readonly SecondFactorMethod[];
  onProof: (proof: SecondFactorProof) => Promise<void>;
  getPasskeyOptions?: () => Promise<PasskeyOptionsResponse>;
  submitLabel?: string;
  onCancel?: () => void;
  cancelLabel?: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  const hasCodes = methods.includes("totp") || methods.includes("recovery");
  const [mode, setMode] = useState<"totp" | "recovery">(methods.includes("totp") ? "totp" : "recovery");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"code" | "passkey" | null>(null);
  const canPasskey = methods.includes("passkey") && getPasskeyOptions !== undefined;

  const run = async (kind: "code" | "passkey", makeProof: () => Promise<SecondFactorProof>) => {
    setBusy(kind);
    setError(null);
    try {
      await onProof(await makeProof());
    } catch (caught) {
      setError(errorMessage(caught, "That did not work. Please try again."));
      setCode("");
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (mode === "totp" && !TOTP_PATTERN.test(value)) {
      setError("Enter the 6-digit code from your authenticator app");
      return;
    }
    if (mode === "recovery" && !RECOVERY_PATTERN.test(value)) {
      setError("Enter one of your recovery codes, like abcde-23456");
      return;
    }
    void run("code", async () => ({ method: mode, code: value }));
  };

  const onPasskey = () =>
    void run("passkey", async () => {
      const { challengeId, options } = await getPasskeyOptions!();
      const { getPasskeyAssertion } = await import("@/web/lib/webauthn");
      // The options object is the server's PublicKeyCredentialRequestOptionsJSON, passed through as is.
      const response = await getPasskeyAssertion(options as never);
      return { method: "passkey", challengeId, response: response as unknown as Record<string, unknown> };
    });

  const inputId = `${id}-code`;
  const errorId = `${id}-error`;
  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      {hasCodes ? (
        <div className="grid gap-1.5">
          <Label htmlFor={inputId}>{mode === "totp" ? "Authentication code" : "Recovery code"}</Label>
          <Input
            id={inputId}
            value={code}
            onChange={(e) =>
              setCode(mode === "totp" ? cleanCode(e.target.value) : e.target.value.slice(0, 11))
            }
            inputMode={mode === "totp" ? "numeric" : "text"}
            autoComplete={mode === "totp" ? "one-time-code" : "off"}
            autoCapitalize="off"
            spellCheck={false}
            placeholder={mode === "totp" ? "123456" : "abcde-23456"}
            className={mode === "totp" ? "font-mono tracking-[0.3em] tabular-nums" : "font-mono"}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${inputId}-hint${error ? ` ${errorId}` : ""}`}
            autoFocus={autoFocus}
          />
          <p id={`${inputId}-hint`} className="text-xs text-ink-subtle">
            {mode === "totp"
              ? "Open your authenticator app and enter the current 6-digit code."
              : "Each recovery code works once."}
          </p>
        </div>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-negative">
          {error}
        </p>
      ) : null}
      {hasCodes ? (
        <Button type="submit" disabled={busy !== null}>
          {busy === "code" ? <Spinner className="size-4 text-white" label="Verifying" /> : null}
          {submitLabel}
        </Button>
      ) : null}
      {canPasskey ? (
        <Button
          type="button"
          // With no code to type, the passkey is the one action, so it looks like one.
          variant={hasCodes ? "secondary" : "primary"}
          onClick={onPasskey}
          disabled={busy !== null}
        >
          {busy === "passkey" ? (
            <Spinner className={hasCodes ? "size-4" : "size-4 text-white"} label="Waiting for your passkey" />
          ) : (
            <KeyRound aria-hidden />
          )}
          Use a passkey
        </Button>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        {methods.includes("totp") && methods.includes("recovery") ? (
          <Button
            type="button"
            variant="link"
            className="px-0"
            onClick={() => {
              setMode(mode === "totp" ? "recovery" : "totp");
              setCode("");
              setError(null);
            }}
          >
            {mode === "totp" ? "Use a recovery code" : "Use your authenticator app"}
          </Button>
        ) : (
          <span />
        )}
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            {cancelLabel}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
