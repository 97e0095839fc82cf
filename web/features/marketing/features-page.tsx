import { ArrowRight, ChartLine, Check, Radar, ShieldCheck, Zap } from "lucide-react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { CtaBand } from "@/web/features/marketing/components/cta-band";
import { FeatureCategories } from "@/web/features/marketing/components/feature-categories";
import { type CoreFeature, FeatureDemoCard } from "@/web/features/marketing/components/feature-demo-card";
import { MarketingLayout } from "@/web/features/marketing/components/marketing-layout";
import { PageHero } from "@/web/features/marketing/components/page-hero";
import { SectionHeading } from "@/web/features/marketing/components/section-heading";
import { useDocumentTitle } from "@/web/lib/use-document-title";

const CORE_FEATURES: CoreFeature[] = [
  {
    title: "Instant Transfers",
    description:
      "Send money out as USDC in minutes, with the fee and the amount that arrives shown up front.",
    points: ["Flat 2% transaction fee", "Up to $2,000 a day", "Status from pending to completed"],
    icon: <Zap aria-hidden />,
  },
  {
    title: "Bank-Level Security",
    description: "Identity verification and encryption protect your account from the day you open it.",
    points: ["FDIC insurance up to $250,000", "SSN protection", "Secure, expiring sessions"],
    icon: <ShieldCheck aria-hidden />,
  },
  {
    title: "Smart Analytics",
    description: "Understand your spending with clear charts and categories that update automatically.",
    points: ["Spending by category", "Money in and money out", "Balance history"],
    icon: <ChartLine aria-hidden />,
  },
  {
    title: "Real-Time Tracking",
    description: "Every transaction shows up the moment it happens, so you always know where you stand.",
    points: ["Live transaction feed", "Available and pending balances", "Clear status for every transfer"],
    icon: <Radar aria-hidden />,
  },
];

const FREE_INCLUDES = [
  "Account opening and checking account",
  "Monthly maintenance",
  "Incoming payments",
  "Analytics dashboard",
  "24/7 customer support",
];

export default function FeaturesPage() {
  useDocumentTitle("Features");
  return (
    <MarketingLayout>
      <PageHero
        eyebrow="Features"
        title="Everything you need to bank with confidence"
        description="Fast transfers, strong protection and clear insights, all in one free account."
      />

      <section aria-labelledby="core-title" className="bg-surface py-16 sm:py-24">
        <Container>
          <SectionHeading
            id="core-title"
            eyebrow="Core features"
            title="Built for the way you move money"
            description="Switch on a demo to preview each feature. Interactive demos are coming soon."
          />
          <ul className="mt-12 grid gap-6 md:grid-cols-2">
            {CORE_FEATURES.map((feature) => (
              <li key={feature.title}>
                <FeatureDemoCard feature={feature} />
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="categories-title" className="border-y border-line bg-canvas py-16 sm:py-24">
        <Container>
          <SectionHeading
            id="categories-title"
            eyebrow="Explore"
            title="Features by category"
            description="From everyday payments to round-the-clock support."
          />
          <FeatureCategories />
        </Container>
      </section>

      <section aria-labelledby="pricing-title" className="bg-surface py-16 sm:py-24">
        <Container className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
          <SectionHeading
            id="pricing-title"
            align="left"
            eyebrow="Pricing"
            title="Free banking. No hidden fees."
            description="Your account costs nothing to open and nothing to keep. The only fee is a flat 2% on outgoing transfers, shown before you confirm."
          />
          <Card className="w-full max-w-xl p-6 sm:p-8 lg:max-w-none">
            <p className="text-sm font-medium text-ink-muted">Personal and business accounts</p>
            <p className="mt-2 flex items-baseline gap-2">
              <span className="text-5xl font-semibold tracking-tight text-ink tabular-nums">$0</span>
              <span className="text-base text-ink-muted">per month</span>
            </p>
            <ul className="mt-6 flex flex-col gap-3 border-t border-line pt-6">
              {FREE_INCLUDES.map((item) => (
                <li key={item} className="flex items-start gap-3 text-sm text-ink">
                  <Check className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
                  {item}
                </li>
              ))}
            </ul>
            <p className="mt-6 rounded-lg bg-canvas px-4 py-3 text-sm text-ink-muted">
              Outgoing transfers: <span className="font-semibold text-ink tabular-nums">2%</span> per
              transfer, up to <span className="font-semibold text-ink tabular-nums">$2,000</span> a day.
            </p>
            <Button asChild size="lg" className="mt-6 w-full">
              <Link href="/auth">
                Open a Free Account
                <ArrowRight aria-hidden />
              </Link>
            </Button>
          </Card>
        </Container>
      </section>

      <CtaBand
        title="Ready to experience modern banking?"
        description={`Join ${BRAND.name} in minutes, or learn more about the team and the values behind it.`}
      >
        <Button asChild variant="inverse" size="lg">
          <Link href="/auth">Get Started Free</Link>
        </Button>
        <Button asChild variant="inverse-outline" size="lg">
          <Link href="/about">Learn More About Us</Link>
        </Button>
      </CtaBand>
    </MarketingLayout>
  );
}
