import { CircleCheck, Lock } from "lucide-react";
import { useState } from "react";
import { useSearch } from "wouter";
import { BRAND } from "@/contract/brand";
import type { SecondFactorMethod } from "@/contract/security";
import { AuthShell } from "@/web/components/auth-shell";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { PasskeySignIn } from "@/web/features/auth/components/passkey-sign-in";
import { SignInForm } from "@/web/features/auth/components/sign-in-form";
import { SignUpForm } from "@/web/features/auth/components/sign-up-form";
import { VerifyEmailForm } from "@/web/features/auth/components/verify-email-form";
import { VerifySecondFactorForm } from "@/web/features/auth/components/verify-second-factor-form";
import { useDocumentTitle } from "@/web/lib/use-document-title";

type Tab = "signin" | "signup";

/** Why the visitor is on /auth, when they did not come by choice: after Logout, or sent from a signed-in page. */
function ArrivalNotice({ search }: { search: string }) {
  const params = new URLSearchParams(search);
  if (params.get("signedOut") === "1")
    return (
      <div role="status" className="mb-6 flex gap-3 rounded-card border border-line bg-brand-50 p-4 text-sm">
        <CircleCheck aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
        <div>
          <p className="font-medium text-ink">You're signed out</p>
          <p className="text-ink-muted">
            Your session has ended on this device. On a shared computer, close this window too.
          </p>
        </div>
      </div>
    );
  if (params.has("next"))
    return (
      <div role="status" className="mb-6 flex gap-3 rounded-card border border-line bg-brand-50 p-4 text-sm">
        <Lock aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
        <p className="text-ink-muted">Sign in to continue. We'll take you back to the page you asked for.</p>
      </div>
    );
  return null;
}

export default function AuthPage() {
  const [tab, setTab] = useState<Tab>("signin");
  const search = useSearch();
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  // Kept in memory only while the code view is open, so the code confirms the registration typed here.
  const [verifyPassword, setVerifyPassword] = useState<string | undefined>();
  const onNeedsVerification = (email: string, password: string) => {
    setVerifyEmail(email);
    setVerifyPassword(password);
  };
  const [signInEmail, setSignInEmail] = useState("");
  const [secondFactor, setSecondFactor] = useState<{ email: string; methods: SecondFactorMethod[] } | null>(
    null,
  );
  useDocumentTitle(verifyEmail ? "Verify your email" : secondFactor ? "Verify it's you" : "Sign in");

  if (secondFactor) {
    const backToPassword = () => {
      setSignInEmail(secondFactor.email);
      setSecondFactor(null);
      setTab("signin");
    };
    return (
      <AuthShell
        back={{ label: "Back to sign in", onClick: backToPassword }}
        title="Verify it's you"
        description={
          secondFactor.methods.includes("totp")
            ? "Enter the code from your authenticator app."
            : secondFactor.methods.includes("recovery")
              ? "Use your passkey or a recovery code."
              : "Use your passkey."
        }
      >
        <VerifySecondFactorForm
          email={secondFactor.email}
          methods={secondFactor.methods}
          onExpired={backToPassword}
        />
      </AuthShell>
    );
  }

  if (verifyEmail) {
    const backToLogin = () => {
      setSignInEmail(verifyEmail);
      setVerifyEmail(null);
      setVerifyPassword(undefined);
      setTab("signin");
    };
    return (
      <AuthShell
        back={{ label: "Back to Home", href: "/" }}
        title="Verify your email"
        description="Enter the code from your inbox to activate your account."
      >
        <VerifyEmailForm
          email={verifyEmail}
          password={verifyPassword}
          onVerified={backToLogin}
          onBack={backToLogin}
        />
      </AuthShell>
    );
  }

  return (
    <AuthShell
      back={{ label: "Back to Home", href: "/" }}
      title={tab === "signin" ? "Welcome back" : `Open your free ${BRAND.name} account`}
      description={
        tab === "signin" ? "Sign in to manage your money." : "No hidden fees. Takes about two minutes."
      }
    >
      <ArrivalNotice search={search} />
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="signin">Sign In</TabsTrigger>
          <TabsTrigger value="signup">Get Started</TabsTrigger>
        </TabsList>
        <TabsContent value="signin" className="mt-6">
          <SignInForm
            key={signInEmail}
            initialEmail={signInEmail}
            onNeedsVerification={onNeedsVerification}
            onSecondFactor={(email, methods) => setSecondFactor({ email, methods })}
          />
          <PasskeySignIn />
        </TabsContent>
        <TabsContent value="signup" className="mt-6">
          <SignUpForm onNeedsVerification={onNeedsVerification} />
        </TabsContent>
      </Tabs>
    </AuthShell>
  );
}
