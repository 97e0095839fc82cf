import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADDRESS_CHECK_KEY = ["/api/recipients/address-check"] as const;

/**
 * GET /api/recipients/address-check: saved as whom, which saved recipient it imitates, first payment or not.
 * Lives in lib beside the book: saving a recipient makes every check stale.
 */
export function checkAddress(address: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/recipients/address-check", { query: { address } }, { signal });
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
