import { z } from "zod";

/**
 * Back-office roles. A user may hold several; holding any makes them staff (`isAdmin` in the spec's API).
 * - support: the chat inbox and a read-only customer view (SSN masked, no documents)
 * - compliance: KYC review and documents, account requests, freezes
 * - finance: incoming payments, credits, transfer settlement, balance adjustments
 * - owner: everything, and grants roles
 */
export const STAFF_ROLES = ["support", "compliance", "finance", "owner"] as const;
export const staffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRole>;

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  support: "Support",
  compliance: "Compliance",
  finance: "Finance",
  owner: "Owner",
};

/** Whether someone holding `held` may act where `allowed` roles may; owners may act everywhere. */
export function holdsAnyRole(held: readonly StaffRole[], allowed: readonly StaffRole[]): boolean {
  return held.includes("owner") || held.some((role) => allowed.includes(role));
}

/** Roles in a stable order (the order of STAFF_ROLES), without duplicates. */
export function normaliseRoles(roles: readonly StaffRole[]): StaffRole[] {
  return STAFF_ROLES.filter((role) => roles.includes(role));
}

export const STAFF_MESSAGES = {
  /** 403 for staff whose roles do not cover the route (flags: roleRequired, allowedRoles). */
  roleRequired: "Your staff role does not allow this",
} as const;
