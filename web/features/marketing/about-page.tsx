import {
  ArrowRight,
  Check,
  Clock,
  HandHeart,
  Mail,
  MessageCircle,
  Scale,
  ShieldCheck,
  Users,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { CtaBand } from "@/web/features/marketing/components/cta-band";
import { MarketingLayout } from "@/web/features/marketing/components/marketing-layout";
import { PageHero } from "@/web/features/marketing/components/page-hero";
import { SectionHeading } from "@/web/features/marketing/components/section-heading";
import { useDocumentTitle } from "@/web/lib/use-document-title";

const STATS = [
  { value: "2023", label: "Founded" },
  { value: "$0", label: "Monthly or hidden fees" },
  { value: "$250,000", label: "FDIC insurance per depositor" },
  { value: "24/7", label: "Customer support" },
];

const MISSION_POINTS = [
  "Free everyday banking with no hidden fees",
  "Instant transfers with one flat, upfront fee",
  "Real-time tracking and analytics for every account",
];

const VALUES: { title: string; description: string; icon: ReactNode }[] = [
  {
    title: "Transparency",
    description:
      "No hidden fees, ever. The one fee we charge, 2% on outgoing transfers, is shown before you confirm.",
    icon: <Scale aria-hidden />,
  },
  {
    title: "Security first",
    description:
      "Identity verification, SSN protection and FDIC insurance up to $250,000 keep your money and data safe.",
    icon: <ShieldCheck aria-hidden />,
  },
  {
    title: "Customers first",
    description:
      "Real people are ready to help 24/7. We measure ourselves by how quickly we solve your problem.",
    icon: <HandHeart aria-hidden />,
  },
  {
    title: "Banking for everyone",
    description: "Personal or business, first account or tenth: opening one is free and takes minutes.",
    icon: <Users aria-hidden />,
  },
];

const TEAM = [
  {
    name: "Maya Chen",
    role: "Co-founder & CEO",
    bio: "Spent a decade building payment systems before starting Pillar.",
  },
  {
    name: "David Okafor",
    role: "Co-founder & CTO",
    bio: "Leads the engineering team that keeps every transfer fast and exact.",
  },
  {
    name: "Sarah Lindqvist",
    role: "Chief Risk Officer",
    bio: "Oversees compliance, identity verification and fraud prevention.",
  },
  {
    name: "James Ortiz",
    role: "Head of Customer Care",
    bio: "Runs the support team that answers around the clock.",
  },
];

function initialsOf(name: string): string {
  return name
    .split(" ")
    .map((part) => part[0])
    .join("");
}

export default function AboutPage() {
  useDocumentTitle("About Us");
  return (
    <MarketingLayout>
      <PageHero
        eyebrow={`About ${BRAND.name}`}
        title="Banking built on trust, designed for everyone"
        description={`Founded in 2023, ${BRAND.name} set out to make banking simple, transparent and free. No hidden fees and no branch visits: just a modern account that keeps you in control.`}
      />

      <section aria-label="At a glance" className="bg-surface py-12 sm:py-16">
        <Container>
          <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
            {STATS.map((stat) => (
              <Card key={stat.label} className="flex flex-col gap-1 p-6 text-center">
                <dt className="order-2 text-sm text-ink-muted">{stat.label}</dt>
                <dd className="order-1 text-2xl font-semibold tracking-tight text-brand-800 tabular-nums sm:text-3xl">
                  {stat.value}
                </dd>
              </Card>
            ))}
          </dl>
        </Container>
      </section>

      <section aria-labelledby="mission-title" className="bg-surface pb-16 sm:pb-24">
        <Container className="grid gap-10 lg:grid-cols-2 lg:gap-16">
          <div className="flex flex-col gap-8">
            <SectionHeading
              id="mission-title"
              align="left"
              eyebrow="Our mission"
              title="Make great banking free for everyone"
            />
            <figure className="rounded-r-card border-l-4 border-brand-700 bg-brand-50 px-6 py-5">
              <blockquote className="text-base leading-7 text-ink">
                “We started {BRAND.name} because a bank account should cost nothing to keep and be easy to
                trust.”
              </blockquote>
              <figcaption className="mt-3 text-sm text-ink-muted">
                <span className="font-semibold text-ink">{TEAM[0].name}</span>, {TEAM[0].role}
              </figcaption>
            </figure>
          </div>
          <div className="flex flex-col gap-5 text-base leading-7 text-ink-muted">
            <p>
              Too many people pay to keep their own money. Monthly fees, surprise charges and slow transfers
              add up, and the people who can least afford them pay the most.
            </p>
            <p>
              {BRAND.name} is a digital bank built to change that. Your account is free, your deposits are
              protected, and every fee is shown before you agree to it.
            </p>
            <ul className="flex flex-col gap-3">
              {MISSION_POINTS.map((point) => (
                <li key={point} className="flex items-start gap-3 text-ink">
                  <Check className="mt-1.5 size-4 shrink-0 text-brand-600" aria-hidden />
                  {point}
                </li>
              ))}
            </ul>
          </div>
        </Container>
      </section>

      <section aria-labelledby="values-title" className="border-y border-line bg-canvas py-16 sm:py-24">
        <Container>
          <SectionHeading
            id="values-title"
            eyebrow="Our values"
            title="What we stand for"
            description="Four promises guide every product decision we make."
          />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map((value) => (
              <li key={value.title}>
                <Card className="flex h-full flex-col gap-3 p-6">
                  <span className="flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700 [&_svg]:size-5">
                    {value.icon}
                  </span>
                  <h3 className="text-base font-semibold text-ink">{value.title}</h3>
                  <p className="text-sm leading-6 text-ink-muted">{value.description}</p>
                </Card>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="team-title" className="bg-surface py-16 sm:py-24">
        <Container>
          <SectionHeading
            id="team-title"
            eyebrow="Our team"
            title={`The people behind ${BRAND.name}`}
            description="Bankers, engineers and support specialists who believe banking should work for you."
          />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {TEAM.map((member) => (
              <li key={member.name}>
                <Card className="flex h-full flex-col items-center gap-3 p-6 text-center">
                  <span
                    aria-hidden
                    className="flex size-16 items-center justify-center rounded-full bg-brand-800 text-lg font-semibold text-white"
                  >
                    {initialsOf(member.name)}
                  </span>
                  <div>
                    <h3 className="text-base font-semibold text-ink">{member.name}</h3>
                    <p className="text-sm font-medium text-brand-600">{member.role}</p>
                  </div>
                  <p className="text-sm leading-6 text-ink-muted">{member.bio}</p>
                </Card>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="contact-title" className="border-t border-line bg-canvas py-16 sm:py-24">
        <Container>
          <SectionHeading
            id="contact-title"
            eyebrow="Contact"
            title="Get in touch"
            description="Questions about an account, a transfer or anything else? We're here to help."
          />
          <ul className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-3">
            <ContactCard icon={<Mail aria-hidden />} title="E-mail us">
              <a
                href={`mailto:${BRAND.supportEmail}`}
                className="rounded-sm font-medium break-all text-brand-600 underline-offset-4 hover:underline"
              >
                {BRAND.supportEmail}
              </a>
            </ContactCard>
            <ContactCard icon={<Clock aria-hidden />} title="Support hours">
              {/* Same hours as /contact states (and its Online badge follows): messages are taken 24/7. */}
              Write to us 24/7. Live chat is staffed Monday–Friday 9:00 AM–6:00 PM and Saturday 10:00 AM–4:00
              PM Eastern time.
            </ContactCard>
            <ContactCard icon={<MessageCircle aria-hidden />} title="Live chat">
              Customers can chat with our team from inside their account.
            </ContactCard>
          </ul>
        </Container>
      </section>

      <CtaBand
        title={`Join ${BRAND.name} today`}
        description="Open a free account in minutes and see what banking without hidden fees feels like."
      >
        <Button asChild variant="inverse" size="lg">
          <Link href="/auth">
            Get Started
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </CtaBand>
    </MarketingLayout>
  );
}

function ContactCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li>
      <Card className="flex h-full flex-col items-center gap-3 p-6 text-center">
        <span className="flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700 [&_svg]:size-5">
          {icon}
        </span>
        <h3 className="text-base font-semibold text-ink">{title}</h3>
        <p className="text-sm leading-6 text-ink-muted">{children}</p>
      </Card>
    </li>
  );
}
