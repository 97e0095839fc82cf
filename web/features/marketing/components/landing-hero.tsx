import { ArrowRight, Check, ChevronDown, CircleCheck, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { PhoneMockup } from "@/web/features/marketing/components/phone-mockup";
import { FootnoteRef } from "@/web/features/marketing/components/site-footer";

const HERO_POINTS = ["No hidden fees", "FDIC insured", "24/7 support"];

export function LandingHero({ onExplore }: { onExplore: () => void }) {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-linear-to-b from-brand-50 to-surface"
    >
      <Container className="grid items-center gap-12 py-14 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:gap-8 lg:py-24">
        <div className="flex flex-col items-start gap-6">
          <Badge tone="brand" className="ring-1 ring-brand-100 ring-inset">
            Free banking · No monthly fees
          </Badge>
          <h1
            id="hero-title"
            className="text-4xl leading-[1.1] font-semibold tracking-tight text-balance text-ink sm:text-5xl lg:text-6xl"
          >
            Modern Digital Banking for <span className="text-brand-700">Everyone</span>
          </h1>
          <p className="max-w-xl text-lg leading-8 text-pretty text-ink-muted">
            Open a free account in minutes. Send money instantly, track every transaction in real time and
            earn 2.5% APY on savings
            <FootnoteRef id="apy" n={2} />, with deposits protected by FDIC insurance up to $250,000.
            <FootnoteRef id="fdic" n={1} />
          </p>
          <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Button asChild size="lg">
              <Link href="/auth">
                Get Started Free
                <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button variant="secondary" size="lg" onClick={onExplore}>
              Explore More
              <ChevronDown aria-hidden />
            </Button>
          </div>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-ink-muted">
            {HERO_POINTS.map((point) => (
              <li key={point} className="inline-flex items-center gap-2">
                <Check className="size-4 text-brand-600" aria-hidden />
                {point}
              </li>
            ))}
          </ul>
        </div>

        <div className="flex justify-center lg:justify-end lg:pr-10">
          <div className="relative">
            <div
              aria-hidden
              className="absolute top-1/2 left-1/2 size-[20rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-brand-100/70 sm:size-[28rem]"
            />
            <PhoneMockup />
            <FloatingChip
              className="top-28 -left-40"
              icon={<ShieldCheck className="size-4" aria-hidden />}
              title="FDIC insured"
              detail="Up to $250,000"
            />
            <FloatingChip
              className="bottom-36 -left-48"
              icon={<CircleCheck className="size-4" aria-hidden />}
              title="Transfer completed"
              detail="Arrived in minutes"
            />
          </div>
        </div>
      </Container>
    </section>
  );
}

/** Decorative callouts beside the phone; only on wide screens, where there is room for them. */
function FloatingChip({
  className,
  icon,
  title,
  detail,
}: {
  className: string;
  icon: ReactNode;
  title: string;
  detail: string;
}) {
  return (
    <div
      aria-hidden
      className={`absolute hidden items-center gap-3 rounded-card border border-line bg-surface px-4 py-3 shadow-raised xl:flex ${className}`}
    >
      <span className="flex size-8 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        {icon}
      </span>
      <span>
        <span className="block text-sm font-semibold text-ink">{title}</span>
        <span className="block text-xs text-ink-muted">{detail}</span>
      </span>
    </div>
  );
}
