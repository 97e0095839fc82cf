import { useEffect, useState } from "react";

type AuthContract = typeof import("@/contract/auth");
let loaded: AuthContract | undefined;
let loading: Promise<AuthContract> | undefined;

/**
 * The spec's messages and limits live in `contract/auth.ts` next to its zod schemas, and importing it
 * statically would put zod (~25 KB gzip) on the sign-in page's first load. So the signed-out forms load it
 * on mount, in its own chunk, and await it on submit (already there by the time anyone submits).
 */
export function loadAuthRules(): Promise<AuthContract> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import("@/contract/auth").then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

/** The auth contract once loaded (null for the first moment after mount); starts loading it. */
export function useAuthRules(): AuthContract | null {
  const [rules, setRules] = useState<AuthContract | null>(loaded ?? null);
  useEffect(() => {
    if (rules) return;
    let isCurrent = true;
    loadAuthRules()
      .then((m) => {
        if (isCurrent) setRules(m);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [rules]);
  return rules;
}
