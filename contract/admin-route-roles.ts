import { CONTRACT_ADMIN_ROUTE_ROLES } from "@/contract/admin-route-roles.generated";
import type { StaffRole } from "@/contract/staff";

/**
 * Who may call each /api/admin route: the one table, generated from the endpoint contracts (decision 075). The
 * server enforces it on every admin request (requireAdmin, server/lib/route-roles.ts) and the admin web reads
 * it to hide what a role cannot do (contract/staff-capabilities.ts), so the two can never disagree. A route
 * missing here cannot be registered. Keys are `METHOD /path` with Fastify's parameter syntax, without a trailing
 * slash (a prefixed "/" route's twin with one is the same route); owners may call everything.
 */
export const ADMIN_ROUTE_ROLES = CONTRACT_ADMIN_ROUTE_ROLES;

export type AdminRouteKey = keyof typeof ADMIN_ROUTE_ROLES;

/** Roles that may open uploaded KYC documents besides their owner (others get the stranger's 404). */
export const DOCUMENT_ROLES: readonly StaffRole[] = ["compliance"];
