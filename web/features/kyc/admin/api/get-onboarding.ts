import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADMIN_ONBOARDING_KEY = ["/api/admin/users", "onboarding"] as const;

/** GET /api/admin/users/{userId}/onboarding: the customer's identity check and account request, for the preview. */
export function getOnboarding(userId: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/admin/users/:userId/onboarding", { params: { userId } }, { signal });
}

export function onboardingQuery(userId: string) {
  return queryOptions({
    queryKey: [...ADMIN_ONBOARDING_KEY, userId],
    queryFn: ({ signal }) => getOnboarding(userId, { signal }),
  });
}

export function useOnboarding(userId: string) {
  return useQuery(onboardingQuery(userId));
}
