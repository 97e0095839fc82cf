import { Mail } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { BRAND } from "@/contract/brand";
import { Container } from "@/web/components/ui/container";
import { Logo } from "@/web/components/ui/logo";
import { toast } from "@/web/components/ui/use-toast";
import { LinkedInIcon, TwitterIcon } from "@/web/features/marketing/components/social-icons";

const QUICK_LINKS = [
  { href: "/", label: "Home" },
  { href: "/about", label: "About Us" },
  { href: "/features", label: "Features" },
  { href: "/auth", label: "Get Started" },
] as const;

const SERVICES = [
  "Digital Banking",
  "Instant Transfers",
  "Smart Analytics",
  "Mobile Banking",
  "24/7 Support",
];

const LEGAL_PAGES = [
  { href: "/privacy", label: "Privacy Policy" },
  { href: "/terms", label: "Terms of Service" },
  { href: "/security", label: "Security" },
] as const;

/** Pages and profiles that do not exist yet say so instead of leading nowhere. */
function announceComingSoon(what: string) {
  toast({
    title: `${what} is coming soon`,
    description: "We're putting the finishing touches on this page.",
  });
}

// White focus rings: the default brand ring is too faint on the dark footer.
const focusOnDark = "focus-visible:outline-white";
const footerLinkClass = `rounded-sm text-sm text-brand-100 transition-colors hover:text-white ${focusOnDark}`;

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-brand-900 text-brand-100">
      <Container className="grid grid-cols-2 gap-x-6 gap-y-10 py-12 lg:grid-cols-[1.4fr_1fr_1fr_1.2fr] lg:py-16">
        <div className="col-span-2 flex flex-col gap-4 lg:col-span-1">
          <Logo tone="inverse" />
          <p className="max-w-xs text-sm leading-6">
            Free digital banking with no hidden fees, instant transfers and deposits protected by FDIC
            insurance up to $250,000.
          </p>
          <div className="flex gap-2">
            <SocialButton label="Twitter" onClick={() => announceComingSoon(`${BRAND.name} on Twitter`)}>
              <TwitterIcon className="size-4" />
            </SocialButton>
            <SocialButton label="LinkedIn" onClick={() => announceComingSoon(`${BRAND.name} on LinkedIn`)}>
              <LinkedInIcon className="size-4" />
            </SocialButton>
          </div>
        </div>

        <FooterColumn title="Quick Links">
          {QUICK_LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href} className={footerLinkClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </FooterColumn>

        <FooterColumn title="Services">
          {SERVICES.map((service) => (
            <li key={service} className="text-sm">
              {service}
            </li>
          ))}
        </FooterColumn>

        <div className="col-span-2 lg:col-span-1">
          <h2 className="text-sm font-semibold text-white">Contact</h2>
          <address className="mt-4 flex flex-col gap-3 not-italic">
            <a
              href={`mailto:${BRAND.supportEmail}`}
              className={`${footerLinkClass} inline-flex items-center gap-2 self-start break-all`}
            >
              <Mail className="size-4 shrink-0" aria-hidden />
              {BRAND.supportEmail}
            </a>
            <p className="inline-flex items-center gap-2 text-sm">
              <span className="size-2 rounded-full bg-positive-soft" aria-hidden />
              Available 24/7
            </p>
          </address>
        </div>
      </Container>

      <div className="border-t border-white/10">
        <Container className="flex flex-col gap-2 pt-6 text-xs leading-5 text-brand-100">
          <h2 className="sr-only">Disclosures</h2>
          <p id="fdic-note">
            <sup>1</sup> FDIC insurance covers deposits up to $250,000 per depositor, per insured bank, for
            each account ownership category, and only protects against the failure of the bank that holds
            them. It does not cover USDC or other crypto assets, or money once a transfer has been sent.
          </p>
          <p id="apy-note">
            <sup>2</sup> The 2.5% APY applies to savings, which is not open yet. The rate is variable and may
            change before and after savings launch; we will show the rate in effect before you deposit.
          </p>
        </Container>
        <Container className="flex flex-col gap-4 py-6 text-xs md:flex-row md:items-center md:justify-between">
          <p>
            © {year} {BRAND.name}. All rights reserved. Deposits are FDIC-insured up to $250,000 per
            depositor.
            <FootnoteRef id="fdic" n={1} />
          </p>
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {LEGAL_PAGES.map((page) => (
              <li key={page.href}>
                <Link
                  href={page.href}
                  className={`rounded-sm text-xs text-brand-100 transition-colors hover:text-white ${focusOnDark}`}
                >
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </Container>
      </div>
    </footer>
  );
}

/** A superscript pointing at a disclosure in the footer. */
export function FootnoteRef({ id, n }: { id: "fdic" | "apy"; n: 1 | 2 }) {
  return (
    <sup>
      <a href={`#${id}-note`} aria-label={`Note ${n}`} className="ml-0.5 underline-offset-2 hover:underline">
        {n}
      </a>
    </sup>
  );
}

function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-4 flex flex-col gap-3 text-sm">{children}</ul>
    </div>
  );
}

function SocialButton({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className={`inline-flex size-9 items-center justify-center rounded-lg border border-white/15 text-brand-100 transition-colors hover:border-white/30 hover:bg-white/10 hover:text-white ${focusOnDark}`}
    >
      {children}
    </button>
  );
}
