import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PasskeyInfo } from "@/contract/passkeys";
import { apiRequest } from "@/web/lib/api";

export const PASSKEYS_KEY = ["/api/auth/passkeys"] as const;

/** GET /api/auth/passkeys: the signed-in user's passkeys, oldest first. */
export function getPasskeys({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<PasskeyInfo[]>("GET", "/api/auth/passkeys", undefined, { signal });
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
