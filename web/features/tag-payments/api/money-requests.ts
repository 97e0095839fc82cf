import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { PayMoneyRequestInput } from "@/contract/money-requests";
import { TRANSFER_LIMITS_KEY } from "@/web/features/transfers/api/get-transfer-limits";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { callEndpoint } from "@/web/lib/api";
import { livePoll } from "@/web/lib/live-updates";
import { RECENT_TRANSACTIONS_KEY } from "@/web/lib/recent-transactions";
import { withStepUp } from "@/web/lib/step-up";

/** Every read of the requests lists starts with this URL (a pushed "requests" notice refetches them). */
export const MONEY_REQUESTS_KEY = ["/api/transfer/requests"] as const;

export type MoneyRequestDirection = "incoming" | "outgoing";

/** Polled only while the pushed stream is down (decision 034), like the dashboard's reads. */
export const MONEY_REQUESTS_POLL_MS = 10_000;

/** GET /api/transfer/requests: one side's requests, newest first, a page at a time (keyset on `before`). */
export function useMoneyRequests(direction: MoneyRequestDirection) {
  return useInfiniteQuery({
    queryKey: [...MONEY_REQUESTS_KEY, { direction }],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        "GET /api/transfer/requests",
        { query: { direction, before: pageParam ?? undefined } },
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
    refetchInterval: livePoll(MONEY_REQUESTS_POLL_MS),
  });
}

function useRefreshAfter(keys: readonly (readonly unknown[])[] = []) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: MONEY_REQUESTS_KEY });
    for (const queryKey of keys) void client.invalidateQueries({ queryKey });
  };
}

/** POST /api/transfer/requests: ask the customer at a $tag for an amount. */
export function useCreateMoneyRequest() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (input: { tag: string; amount: string; note?: string }) =>
      callEndpoint("POST /api/transfer/requests", { body: input }),
    onSuccess: refresh,
  });
}

export interface PayMoneyRequestVariables {
  id: string;
  idempotencyKey: string;
  input?: PayMoneyRequestInput;
}

/** POST /api/transfer/requests/:id/pay: a tag payment; one key per request, so a double click never pays twice. */
export function usePayMoneyRequest() {
  const refresh = useRefreshAfter([
    ACCOUNT_SUMMARY_KEY,
    RECENT_TRANSACTIONS_KEY,
    ["/api/transactions"],
    TRANSFER_LIMITS_KEY,
  ]);
  return useMutation({
    // With a second factor, the app's step-up dialog verifies, then the same payment, same key, is sent again.
    mutationFn: ({ id, idempotencyKey, input }: PayMoneyRequestVariables) =>
      withStepUp(() =>
        callEndpoint(
          "POST /api/transfer/requests/:id/pay",
          { params: { id }, body: input ?? {} },
          { headers: { "Idempotency-Key": idempotencyKey } },
        ),
      ),
    onSuccess: refresh,
  });
}

/** POST /api/transfer/requests/:id/decline (the payer) or /cancel (the requester). */
export function useCloseMoneyRequest(action: "decline" | "cancel") {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (id: string) => callEndpoint(`POST /api/transfer/requests/:id/${action}`, { params: { id } }),
    onSuccess: refresh,
  });
}

/** Every read of the blocked requesters list starts with this URL. */
export const REQUEST_BLOCKS_KEY = ["/api/transfer/request-blocks"] as const;

/** GET /api/transfer/request-blocks: the requesters this customer blocked, newest first (keyset on `before`). */
export function useRequestBlocks() {
  return useInfiniteQuery({
    queryKey: REQUEST_BLOCKS_KEY,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        "GET /api/transfer/request-blocks",
        { query: { before: pageParam ?? undefined } },
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** POST /api/transfer/requests/:id/block: the payer blocks the requester of a request they received. */
export function useBlockRequester() {
  const refresh = useRefreshAfter([REQUEST_BLOCKS_KEY]);
  return useMutation({
    mutationFn: (requestId: string) =>
      callEndpoint("POST /api/transfer/requests/:id/block", { params: { id: requestId } }),
    onSuccess: refresh,
  });
}

/** DELETE /api/transfer/request-blocks/:id: the requester may ask again. */
export function useUnblockRequester() {
  const refresh = useRefreshAfter([REQUEST_BLOCKS_KEY]);
  return useMutation({
    mutationFn: (blockId: string) =>
      callEndpoint("DELETE /api/transfer/request-blocks/:id", { params: { id: blockId } }),
    onSuccess: refresh,
  });
}
