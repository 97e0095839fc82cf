import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const RECIPIENTS_KEY = ["/api/recipients"] as const;

/**
 * GET /api/recipients: every saved recipient, by name (at most RECIPIENT_LIMIT). Lives in lib: the address
 * book (recipients) and the transfer form's picker (transfers) both read it.
 */
export function findRecipients({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/recipients", {}, { signal });
}

export const recipientsQuery = queryOptions({
  queryKey: RECIPIENTS_KEY,
  queryFn: ({ signal }) => findRecipients({ signal }),
});

export function useRecipients() {
  return useQuery(recipientsQuery);
}
