import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AddressCheck } from "@/contract/recipients";
import { apiRequest } from "@/web/lib/api";

export const ADDRESS_CHECK_KEY = ["/api/recipients/address-check"] as const;

/**
 * GET /api/recipients/address-check: saved as whom, which saved recipient it imitates, first payment or not.
 * Lives in lib beside the book: saving a recipient makes every check stale.
 */
export function checkAddress(address: string, { signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AddressCheck>(
    "GET",
    `/api/recipients/address-check?address=${encodeURIComponent(address)}`,
    undefined,
    { signal },
  );
}

export const addressCheckQuery = (address: string) =>
  queryOptions({
    queryKey: [...ADDRESS_CHECK_KEY, address],
    queryFn: ({ signal }) => checkAddress(address, { signal }),
    // The review step must judge the book as it is now, not as it was when the form opened.
    staleTime: 0,
    retry: 1,
  });

export function useAddressCheck(address: string) {
  return useQuery(addressCheckQuery(address));
}
