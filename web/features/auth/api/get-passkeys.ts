import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const PASSKEYS_KEY = ["/api/auth/passkeys"] as const;

/** GET /api/auth/passkeys: the signed-in user's passkeys, oldest first. */
export function getPasskeys({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/auth/passkeys", {}, { signal });
}

export const passkeysQuery = queryOptions({
  queryKey: PASSKEYS_KEY,
  queryFn: ({ signal }) => getPasskeys({ signal }),
  // "Last used" moves whenever a passkey signs in elsewhere.
  staleTime: 0,
});

export function usePasskeys() {
  return useQuery(passkeysQuery);
}
