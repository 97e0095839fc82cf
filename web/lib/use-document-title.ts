import { useEffect } from "react";
import { BRAND } from "@/contract/brand";

/** Sets the tab title ("Settings | Pillar") while the page is mounted and restores the previous one on leave. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} | ${BRAND.name}`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
