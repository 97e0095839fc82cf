import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { TabsList } from "@/web/components/ui/tabs";
import { cn } from "@/web/lib/cn";

/** How far from an edge (px) still counts as "at the edge": the strip's own padding and rounding never leave a fade on. */
const EDGE_SLACK = 8;

/**
 * The admin tab strip. On a phone its seven tabs overflow sideways: a fade at each edge that has more tabs beyond
 * it says the strip scrolls, and the active tab is scrolled into view when it changes (from a click or the
 * keyboard's arrow keys).
 */
export function AdminTabStrip({ active, children }: { active: string; children: ReactNode }) {
  const list = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState({ start: false, end: false });

  const measure = useCallback(() => {
    const el = list.current;
    if (!el) return;
    const start = el.scrollLeft > EDGE_SLACK;
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - EDGE_SLACK;
    setOverflow((prev) => (prev.start === start && prev.end === end ? prev : { start, end }));
  }, []);

  useEffect(() => {
    const el = list.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  useEffect(() => {
    // Radix names each trigger "…-trigger-<value>".
    const tab = list.current?.querySelector<HTMLElement>(
      `[role="tab"][id$="-trigger-${CSS.escape(active)}"]`,
    );
    // "nearest" on both axes: bring the tab into the strip without scrolling the page itself.
    tab?.scrollIntoView({ block: "nearest", inline: "nearest" });
    measure();
  }, [active, measure]);

  return (
    <div
      className="relative min-w-0"
      data-overflow-start={overflow.start || undefined}
      data-overflow-end={overflow.end || undefined}
    >
      <TabsList
        ref={list}
        onScroll={measure}
        className="w-full justify-start scroll-smooth md:flex-wrap [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
      >
        {children}
      </TabsList>
      <span
        aria-hidden
        className={cn(
          "pointer-events-none absolute inset-y-0 left-0 w-8 rounded-l-lg bg-gradient-to-r from-brand-50 to-transparent transition-opacity",
          overflow.start ? "opacity-100" : "opacity-0",
        )}
      />
      <span
        aria-hidden
        className={cn(
          "pointer-events-none absolute inset-y-0 right-0 w-10 rounded-r-lg bg-gradient-to-l from-brand-50 via-brand-50/80 to-transparent transition-opacity",
          overflow.end ? "opacity-100" : "opacity-0",
        )}
      />
    </div>
  );
}
