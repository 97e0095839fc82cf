import { queryOptions, useQuery } from "@tanstack/react-query";
import type { IncomingPayment } from "@/contract/payments";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_INCOMING_PAYMENTS_KEY = ["/api/admin/incoming-payments"] as const;

/** GET /api/admin/incoming-payments: every incoming payment with its customer, newest first. */
export function getIncomingPayments({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<IncomingPayment[]>("GET", "/api/admin/incoming-payments", undefined, { signal });
}

export const incomingPaymentsQuery = queryOptions({
  queryKey: ADMIN_INCOMING_PAYMENTS_KEY,
  queryFn: ({ signal }) => getIncomingPayments({ signal }),
  staleTime: 0,
});

export function useIncomingPayments() {
  return useQuery(incomingPaymentsQuery);
}
