import type { QueryClient } from "@tanstack/react-query";
import {
  ADMIN_INCOMING_PAYMENTS_KEY,
  ADMIN_STATS_KEY,
  ADMIN_TRANSACTIONS_KEY,
  ADMIN_TRANSFER_REQUESTS_KEY,
  ADMIN_USERS_KEY,
} from "@/web/components/admin/admin-keys";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { RECENT_TRANSACTIONS_KEY } from "@/web/lib/recent-transactions";

/**
 * After an admin money change the related lists, stats, users, account summary and recent
 * transactions are refreshed. One change can touch all of them (a completed payment is also a credit).
 */
export function invalidateAdminMoney(queryClient: QueryClient) {
  return Promise.all(
    [
      ADMIN_TRANSFER_REQUESTS_KEY,
      ADMIN_INCOMING_PAYMENTS_KEY,
      ADMIN_TRANSACTIONS_KEY,
      ADMIN_STATS_KEY,
      ADMIN_USERS_KEY,
      ACCOUNT_SUMMARY_KEY,
      RECENT_TRANSACTIONS_KEY,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
