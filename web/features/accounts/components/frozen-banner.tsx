import { ShieldAlert } from "lucide-react";
import { Link } from "wouter";

/** Shown while "This wasn't me" keeps the account frozen: money can't leave until support lifts it. */
export function FrozenBanner() {
  return (
    <section
      aria-labelledby="frozen-banner-title"
      className="flex flex-col gap-3 rounded-card border border-negative/30 bg-negative-soft p-4 sm:flex-row sm:items-start"
    >
      <ShieldAlert aria-hidden className="size-6 shrink-0 text-negative" />
      <div className="grid gap-1 text-sm text-ink">
        <h2 id="frozen-banner-title" className="text-base font-semibold">
          Your account is frozen
        </h2>
        <p>
          You reported a sign-in or change with the “This wasn't me” link, so new transfers are stopped and
          pending ones are under review. Your balance is safe. Our support team will contact you to lift the
          freeze.
        </p>
        <Link href="/contact" className="w-fit font-medium text-brand-700 hover:underline">
          Message support
        </Link>
      </div>
    </section>
  );
}
