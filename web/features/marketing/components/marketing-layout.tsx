import type { ReactNode } from "react";
import { SiteFooter } from "@/web/features/marketing/components/site-footer";
import { SiteNav, type SiteNavProps } from "@/web/features/marketing/components/site-nav";

/** Skip link, top navigation, the page's main landmark, footer. */
export function MarketingLayout({ children, nav }: { children: ReactNode; nav?: SiteNavProps }) {
  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip bg-surface">
      <a
        href="#main"
        className="sr-only rounded-md bg-brand-800 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-4 focus:py-2 focus:shadow-raised"
      >
        Skip to content
      </a>
      <SiteNav {...nav} />
      <main id="main" tabIndex={-1} className="flex-1 focus-visible:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
