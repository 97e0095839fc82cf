import { ShieldAlert } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { LogoMark } from "@/web/components/ui/logo";

/** Staff without a second factor see this instead of the back office (the server refuses every admin call). */
export function SecondFactorRequired() {
  return (
    <div className="min-h-dvh bg-canvas">
      <main>
        <Container className="grid min-h-dvh place-items-center py-12">
          <Card className="w-full max-w-lg">
            <CardContent className="grid justify-items-center gap-4 p-8 text-center">
              <LogoMark />
              <span className="flex size-12 items-center justify-center rounded-full bg-pending-soft text-pending">
                <ShieldAlert className="size-6" aria-hidden />
              </span>
              <h1 className="text-xl font-semibold tracking-tight text-ink">
                Set up a second factor to use the back office
              </h1>
              <p className="text-sm text-ink-muted">
                Staff accounts can move money and read customers' identity documents, so every admin signs in
                with an authenticator app or a passkey as well as a password. It takes about a minute.
              </p>
              <div className="flex flex-wrap justify-center gap-2">
                <Button asChild>
                  <Link href="/settings#security">Set up two-step verification</Link>
                </Button>
                {/* Staff have no customer dashboard (they never bank): the other way out is signing out. */}
                <Button asChild variant="ghost">
                  <a href="/api/logout">Log out</a>
                </Button>
              </div>
            </CardContent>
          </Card>
        </Container>
      </main>
    </div>
  );
}
