import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { pageQuery } from "@/contract/pages";

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

/** One staff member in the owner's Staff tab. */
export const staffMember = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  staffRoles: z.array(staffRole),
  /** An authenticator app or a passkey: staff cannot reach the back office without one (ADMIN_REQUIRE_2FA). */
  secondFactorEnabled: z.boolean(),
  /** Listed in ADMIN_EMAILS: the owner role comes back at every sign-in, so it cannot be revoked here. */
  ownerByConfig: z.boolean(),
  createdAt: z.string(),
});
export type StaffMember = z.infer<typeof staffMember>;
export const staffMemberPage = z.object({ items: z.array(staffMember), nextCursor: z.string().nullable() });

const rolesList = z
  .array(staffRole, { error: "Choose one or more roles" })
  .min(1, "Choose one or more roles")
  .max(STAFF_ROLES.length, "Choose one or more roles");

/** POST /api/admin/staff: grants roles to an existing, verified account found by its e-mail. */
export const addStaffInput = z.object({
  email: z
    .string({ error: "Enter the e-mail of an existing account" })
    .trim()
    .min(1, "Enter the e-mail of an existing account")
    .max(254, "Must be at most 254 characters")
    .pipe(z.email({ error: "Please enter a valid email address" })),
  roles: rolesList,
});
export type AddStaffInput = z.infer<typeof addStaffInput>;

/** POST /api/admin/staff/:userId/grant and /revoke. */
export const staffRolesInput = z.object({ roles: rolesList });
export type StaffRolesInput = z.infer<typeof staffRolesInput>;

export const STAFF_MANAGEMENT_MESSAGES = {
  noAccount: "No account uses that e-mail. They must sign up and verify it first.",
  notFound: "No account with that id",
  /** 409 lastOwner: the bank always keeps one owner who can grant roles. */
  lastOwner: "Pillar must keep at least one owner. Make someone else an owner first.",
  /** 409 ownerByConfig. */
  ownerByConfig:
    "This owner is listed in ADMIN_EMAILS and regains the role at every sign-in. Remove them there first.",
  /** 409 customerAccount: staff work from an account that does not bank with Pillar. */
  customerAccount:
    "This account banks with Pillar (identity check, account or money). Staff need a separate account with no banking.",
  /** 409 customerAccount: money on the account or on its way to or from it. */
  moneyInFlight:
    "This account holds money or has money on its way (a balance, a hold, a pending transfer, payment, credit or approval). Staff need a separate account with no banking.",
  /** 403 staffAccount: staff never bank (KYC, account opening, recipients, transfers). */
  staffCannotBank: "Staff accounts cannot bank with Pillar. Use a separate customer account.",
} as const;

/**
 * A staff member's id in a path: the same schema as contract/admin.ts's userIdParams, written here because that
 * file reaches this one (through contract/auth.ts) and a cycle would leave one of them half-loaded.
 */
const staffUserParams = z.object({ userId: z.uuid({ error: "Not a valid user id" }) });

/**
 * /api/admin/staff: the owner's Staff tab; owners alone grant and revoke roles. Granting and revoking are security
 * changes: an owner with a second factor proves it again first (403 stepUpRequired), like a balance edit.
 */
export const STAFF_ENDPOINTS = endpoints({
  "GET /api/admin/staff": {
    access: ["owner"],
    query: pageQuery,
    replies: { 200: staffMemberPage },
    errors: ["invalid_cursor"],
  },
  // Roles for an existing, verified account found by e-mail; never one that banks with Pillar.
  "POST /api/admin/staff": {
    access: ["owner"],
    body: addStaffInput,
    replies: { 200: staffMember },
    errors: ["NOT_FOUND", "CONFLICT", "customer_account", "money_in_flight"],
    stepUp: true,
  },
  "POST /api/admin/staff/:userId/grant": {
    access: ["owner"],
    params: staffUserParams,
    body: staffRolesInput,
    replies: { 200: staffMember },
    errors: ["NOT_FOUND", "CONFLICT", "customer_account", "money_in_flight"],
    stepUp: true,
  },
  // Pillar keeps one owner, and an owner listed in ADMIN_EMAILS is removed there.
  "POST /api/admin/staff/:userId/revoke": {
    access: ["owner"],
    params: staffUserParams,
    body: staffRolesInput,
    replies: { 200: staffMember },
    errors: ["NOT_FOUND", "owner_by_config", "last_owner"],
    stepUp: true,
  },
});
