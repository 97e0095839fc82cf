import { ShieldCheck } from "lucide-react";
import type { SecondFactorMethod } from "@/contract/security";
import { SecondFactorForm } from "@/web/components/second-factor-form";
import { toast } from "@/web/components/ui/use-toast";
import { getLoginPasskeyOptions, verifyLogin } from "@/web/features/auth/api/verify-login";
import { ApiError } from "@/web/lib/api";
import { afterSignInPath } from "@/web/lib/return-path";

/** Sign-in's second step: the password was right, now the authenticator, a recovery code or a passkey. */
export function VerifySecondFactorForm({
  email,
  methods,
  onExpired,
}: {
  email: string;
  methods: SecondFactorMethod[];
  /** The five minutes ran out (or the attempts): back to the password. */
  onExpired: () => void;
}) {
  return (
    <div className="grid gap-5">
      <div className="flex items-start gap-3 rounded-lg bg-brand-50 p-4 text-sm text-brand-900">
        <ShieldCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
        <p>
          Two-step verification is on for <span className="font-medium break-all">{email}</span>. Confirm it's
          you to finish signing in.
        </p>
      </div>
      <SecondFactorForm
        methods={methods}
        getPasskeyOptions={getLoginPasskeyOptions}
        onProof={async (proof) => {
          try {
            await verifyLogin(proof);
          } catch (error) {
            if (error instanceof ApiError && error.reason === "login_expired") {
              toast({ title: "Sign-in timed out", description: error.message, variant: "destructive" });
              onExpired();
              return;
            }
            throw error;
          }
          // A full load, so the router starts again with the new session.
          window.location.href = afterSignInPath();
        }}
      />
    </div>
  );
}
