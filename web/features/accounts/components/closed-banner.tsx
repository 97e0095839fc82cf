import { Link } from "wouter";
import type { AccountClosure } from "@/contract/closure";

/** Shown on a closed account (decision 059): nothing moves any more; history and statements stay readable. */
export function ClosedBanner({ closure }: { closure: AccountClosure }) {
  return (
    <section aria-labelledby="closed-banner-title" className="rounded-card border border-line bg-surface p-4">
      <div className="grid gap-1 text-sm text-ink">
        <h2 id="closed-banner-title" className="text-base font-semibold">
          This account was closed on {closure.closedOn}
        </h2>
        <p>
          It can no longer send or receive money, and money sent to it is not credited. Your history and
          statements stay available here.
        </p>
        <Link href="/statements" className="w-fit font-medium text-brand-700 hover:underline">
          Download your statements
        </Link>
      </div>
    </section>
  );
}
