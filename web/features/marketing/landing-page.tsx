import { ArrowRight, ChartLine, Check, ShieldCheck, Zap } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { CtaBand } from "@/web/features/marketing/components/cta-band";
import { LandingHero } from "@/web/features/marketing/components/landing-hero";
import { MarketingLayout } from "@/web/features/marketing/components/marketing-layout";
import { SectionHeading } from "@/web/features/marketing/components/section-heading";
import { FootnoteRef } from "@/web/features/marketing/components/site-footer";

const LANDING_TITLE = `${BRAND.name} - Modern Digital Banking Platform | Free Banking Services`;

const HIGHLIGHTS: { value: string; label: string; note?: { id: "fdic" | "apy"; n: 1 | 2 } }[] = [
  { value: "$0", label: "Monthly or hidden fees" },
  { value: "2.5% APY", label: "On your savings", note: { id: "apy", n: 2 } },
  { value: "$250,000", label: "FDIC insurance protection", note: { id: "fdic", n: 1 } },
  { value: "24/7", label: "Customer support" },
];

const FEATURES: { title: string; description: string; points: string[]; icon: ReactNode }[] = [
  {
    title: "Instant Transfers",
    description: "Send money out in minutes, not days. Transfers settle in USDC, one to one with the dollar.",
    points: ["Flat 2% fee, shown before you send", "Up to $2,000 a day", "Live status until it lands"],
    icon: <Zap aria-hidden />,
  },
  {
    title: "Bank-Level Security",
    description: "Your money and your identity are protected at every step, from sign-up to every transfer.",
    points: [
      "FDIC insurance up to $250,000",
      "Identity verification with SSN protection",
      "Encrypted data and sessions",
    ],
    icon: <ShieldCheck aria-hidden />,
  },
  {
    title: "Smart Analytics",
    description:
      "See where your money goes and plan what comes next, with insights that update as you spend.",
    points: ["Real-time transaction tracking", "A clear analytics dashboard", "Balance history at a glance"],
    icon: <ChartLine aria-hidden />,
  },
];

const STEPS = [
  {
    title: "Create your account",
    description: "Sign up with your e-mail and confirm it with a 6-digit code.",
  },
  {
    title: "Verify your identity",
    description: "Share a few details and a photo ID. Most reviews finish within 24 hours.",
  },
  {
    title: "Start banking",
    description: "Open your free checking account and get your account and routing numbers.",
  },
];

const PRICING = [
  { item: "Account opening", price: "Free" },
  { item: "Monthly maintenance", price: "Free" },
  { item: "Incoming payments", price: "Free" },
  { item: "Outgoing transfers", price: "2% per transfer" },
  { item: "Daily transfer limit", price: "$2,000" },
  { item: "Savings rate", price: "2.5% APY" },
];

export default function LandingPage() {
  useEffect(() => {
    document.title = LANDING_TITLE;
  }, []);
  const featuresHeadingRef = useRef<HTMLHeadingElement>(null);

  function scrollToFeatures() {
    const heading = featuresHeadingRef.current;
    if (!heading) return;
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    heading.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
    // Move focus too, so keyboard and screen-reader users land where the page scrolled to.
    heading.focus({ preventScroll: true });
  }

  return (
    <MarketingLayout>
      <LandingHero onExplore={scrollToFeatures} />

      <section aria-label="Highlights" className="border-y border-line bg-surface">
        <Container>
          <dl className="grid grid-cols-2 divide-line py-8 md:grid-cols-4 md:divide-x">
            {HIGHLIGHTS.map((highlight) => (
              <div key={highlight.label} className="flex flex-col gap-1 px-2 py-3 text-center lg:px-6">
                <dt className="order-2 text-sm text-ink-muted">{highlight.label}</dt>
                <dd className="order-1 text-2xl font-semibold tracking-tight whitespace-nowrap text-ink tabular-nums lg:text-3xl">
                  {highlight.value}
                  {highlight.note && <FootnoteRef {...highlight.note} />}
                </dd>
              </div>
            ))}
          </dl>
        </Container>
      </section>

      <section
        id="features"
        aria-labelledby="features-title"
        className="scroll-mt-16 bg-canvas py-16 sm:py-24"
      >
        <Container>
          <div className="mx-auto flex max-w-2xl flex-col gap-3 text-center">
            <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Why {BRAND.name}</p>
            <h2
              id="features-title"
              ref={featuresHeadingRef}
              tabIndex={-1}
              className="scroll-mt-24 text-3xl font-semibold tracking-tight text-balance text-ink focus-visible:outline-none sm:text-4xl"
            >
              Banking that works as hard as you do
            </h2>
            <p className="text-base leading-7 text-pretty text-ink-muted sm:text-lg">
              Everything you need to move, protect and understand your money, in one free account.
            </p>
          </div>
          <ul className="mx-auto mt-12 grid max-w-2xl gap-6 lg:max-w-none lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title}>
                <Card className="flex h-full flex-col gap-4 p-6">
                  <span className="flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700 [&_svg]:size-5">
                    {feature.icon}
                  </span>
                  <h3 className="text-lg font-semibold text-ink">{feature.title}</h3>
                  <p className="text-sm leading-6 text-ink-muted">{feature.description}</p>
                  <ul className="mt-auto flex flex-col gap-2 border-t border-line pt-4">
                    {feature.points.map((point) => (
                      <li key={point} className="flex items-start gap-2 text-sm text-ink">
                        <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
                        {point}
                      </li>
                    ))}
                  </ul>
                </Card>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="steps-title" className="bg-surface py-16 sm:py-24">
        <Container>
          <SectionHeading
            id="steps-title"
            eyebrow="How it works"
            title="Open your account in three steps"
            description="No branch visits and no paperwork in the mail. Most people are set up the same day."
          />
          <ol className="mt-12 grid gap-8 md:grid-cols-3 md:gap-6">
            {STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4 md:flex-col">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full border border-brand-200 bg-brand-50 text-sm font-semibold text-brand-800 tabular-nums">
                  {index + 1}
                </span>
                <div className="flex flex-col gap-1">
                  <h3 className="text-base font-semibold text-ink">{step.title}</h3>
                  <p className="text-sm leading-6 text-ink-muted">{step.description}</p>
                </div>
              </li>
            ))}
          </ol>
        </Container>
      </section>

      <section aria-labelledby="pricing-title" className="border-t border-line bg-canvas py-16 sm:py-24">
        <Container className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
          <div className="flex flex-col items-start gap-6">
            <SectionHeading
              id="pricing-title"
              align="left"
              eyebrow="Pricing"
              title="Transparent pricing. No surprises."
              description="Everyday banking is free. The only fee is a flat 2% on outgoing transfers, and you always see it before you confirm."
            />
            <Button asChild variant="secondary">
              <Link href="/features">
                See all features
                <ArrowRight aria-hidden />
              </Link>
            </Button>
          </div>
          <Card className="w-full max-w-xl lg:max-w-none">
            <dl className="divide-y divide-line">
              {PRICING.map((row) => (
                <div key={row.item} className="flex items-center justify-between gap-4 px-6 py-4">
                  <dt className="text-sm text-ink-muted">{row.item}</dt>
                  <dd className="text-right text-sm font-semibold text-ink tabular-nums">
                    {row.price}
                    {row.price.includes("APY") && <FootnoteRef id="apy" n={2} />}
                  </dd>
                </div>
              ))}
            </dl>
          </Card>
        </Container>
      </section>

      <CtaBand
        title={`Ready to bank with ${BRAND.name}?`}
        description="Open your free account in minutes. No monthly fees, no hidden fees, and real people ready to help 24/7."
      >
        <Button asChild variant="inverse" size="lg">
          <Link href="/auth">Open Your Free Account</Link>
        </Button>
        <Button asChild variant="inverse-outline" size="lg">
          <Link href="/about">About {BRAND.name}</Link>
        </Button>
      </CtaBand>
    </MarketingLayout>
  );
}
