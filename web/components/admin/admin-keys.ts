/*
 * The back office's money lists and figures, keyed by their API path (an admin list's key starts with its path,
 * admin-list.ts). Their areas (credits, transfers, users) read their keys from here, so the one refresh
 * (admin-money.ts) names them all and imports none of those areas: credits and transfers both call it.
 */
export const ADMIN_TRANSFER_REQUESTS_KEY = ["/api/admin/transfer-requests"] as const;
export const ADMIN_INCOMING_PAYMENTS_KEY = ["/api/admin/incoming-payments"] as const;
export const ADMIN_TRANSACTIONS_KEY = ["/api/admin/transactions"] as const;
export const ADMIN_STATS_KEY = ["/api/admin/stats"] as const;
export const ADMIN_USERS_KEY = ["/api/admin/users"] as const;
