import { Link, useLocation } from "wouter";
import { Container } from "@/web/components/ui/container";
import { MarketingLayout } from "@/web/features/marketing/components/marketing-layout";
import { PageHero } from "@/web/features/marketing/components/page-hero";
import { TRUST_DOCUMENTS, type TrustSection } from "@/web/features/marketing/trust-content";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** /privacy, /terms and /security: one layout, the document chosen by the path. */
export default function TrustPage() {
  const [pathname] = useLocation();
  const document = TRUST_DOCUMENTS.find((d) => d.path === pathname) ?? TRUST_DOCUMENTS[0]!;
  useDocumentTitle(document.title);
  return (
    <MarketingLayout>
      <PageHero eyebrow={document.eyebrow} title={document.title} description={document.summary} />
      <Container className="grid gap-10 py-12 sm:py-16 lg:grid-cols-[12rem_1fr] lg:gap-16">
        <nav aria-label="Trust pages" className="lg:sticky lg:top-24 lg:self-start">
          <ul className="flex flex-wrap gap-2 lg:flex-col">
            {TRUST_DOCUMENTS.map((d) => (
              <li key={d.path}>
                <Link
                  href={d.path}
                  aria-current={d.path === document.path ? "page" : undefined}
                  className="block rounded-md px-3 py-2 text-sm text-ink-muted hover:bg-canvas hover:text-ink aria-[current=page]:bg-brand-50 aria-[current=page]:font-medium aria-[current=page]:text-brand-800"
                >
                  {d.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <article className="flex max-w-3xl flex-col gap-10">
          {document.sections.map((section) => (
            <TrustSectionBlock key={section.title} section={section} />
          ))}
        </article>
      </Container>
    </MarketingLayout>
  );
}

function TrustSectionBlock({ section }: { section: TrustSection }) {
  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold tracking-tight text-ink">{section.title}</h2>
      {section.paragraphs?.map((text) => (
        <p key={text} className="text-base leading-7 text-ink-muted">
          {text}
        </p>
      ))}
      {section.rows && (
        <dl className="divide-y divide-line rounded-card border border-line">
          {section.rows.map((row) => (
            <div key={row.what} className="grid gap-1 p-4 sm:grid-cols-[14rem_1fr] sm:gap-6">
              <dt className="text-sm font-medium text-ink">{row.what}</dt>
              <dd className="text-sm leading-6 text-ink-muted">{row.detail}</dd>
            </div>
          ))}
        </dl>
      )}
      {section.items && (
        <ul className="flex list-disc flex-col gap-2 pl-5 text-base leading-7 text-ink-muted marker:text-brand-600">
          {section.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
