import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const transferReceiptKey = (id: string) => ["/api/transfers", id] as const;

/** GET /api/transfers/{id}: the signed-in customer's own transfer (404 for anyone else's). */
export function getTransferReceipt(id: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/transfers/:id", { params: { id } }, { signal });
}

export const transferReceiptQuery = (id: string) =>
  queryOptions({
    queryKey: transferReceiptKey(id),
    queryFn: ({ signal }) => getTransferReceipt(id, { signal }),
    // A 404 will not turn into a receipt by asking again.
    retry: false,
    // A payout on its way on chain: its confirmations count up until it completes.
    refetchInterval: (query) =>
      query.state.data?.onChain && query.state.data.status === "processing" ? 5_000 : false,
  });

export function useTransferReceipt(id: string) {
  return useQuery(transferReceiptQuery(id));
}
