/** The first focusable element of a signed-in page: "Skip to content", visible only when focused. */
export function SkipLink() {
  return (
    <a
      href="#main"
      // focus:px/py after not-sr-only, which resets padding to 0.
      className="sr-only rounded-md bg-brand-800 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-4 focus:py-2 focus:shadow-raised"
    >
      Skip to content
    </a>
  );
}

/** Props for the page's `<main>`: the skip link's target, focusable so the jump moves keyboard focus too. */
export const MAIN_PROPS = { id: "main", tabIndex: -1 } as const;
