import { z } from "zod";
import { pendingApprovalResponse, unfreezeInput } from "@/contract/approvals";
import { messageResponse } from "@/contract/auth";
import { endpoints } from "@/contract/endpoint";
import { pageOf, pageQuery } from "@/contract/pages";

export const ADMIN_MESSAGES = {
  testEmailMissing: "Please enter both email and first name",
  paymentNotificationMissing: "Please fill all fields",
  /**
   * 422 testMailStaffOnly: a sample e-mail in a customer's inbox would read as real (docs/architecture.md, Design
   * notes).
   */
  testMailStaffOnly:
    "Test e-mails go to staff addresses only: enter your own address or another staff member's",
  cannotDeleteAdmin: "Admin users cannot be deleted",
  userNotFound: "User not found",
  userHasMoney:
    "This user still has money in their account. A customer with money history is closed, not deleted: send the balance out to $0.00, then close the account.",
  userHasOpenRequests: "This user has transfers or payments in progress. Settle them before deleting.",
} as const;

/** Spec §3 User as the back office sees it; balances are display strings like "$1,234.56". */
export const adminUser = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  pillarTag: z.string(),
  isAdmin: z.boolean(),
  isEmailVerified: z.boolean(),
  isVerified: z.boolean(),
  status: z.string(),
  /** Set when the customer used "This wasn't me"; staff lift it with POST /api/admin/users/:userId/unfreeze. */
  frozenAt: z.string().nullable(),
  /** The customer must reset the password before signing in again. */
  passwordResetRequired: z.boolean(),
  accountBalance: z.string(),
  availableBalance: z.string(),
  pendingBalance: z.string(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUserPage = pageOf(adminUser);

/**
 * Who the user list shows: customers (what the stats card's Total Users counts), staff, or every account. Absent
 * means all, as before the filter existed.
 */
export const USER_ROLES = ["customer", "staff"] as const;
export type UserRoleFilter = (typeof USER_ROLES)[number] | "all";
/** The payment and credit pickers' list: customers whose checking account is open, the only ones money may reach. */
export const RECEIVING_FILTER = "open_account";
export const adminUserQuery = pageQuery.extend({
  role: z.enum([...USER_ROLES, "all", RECEIVING_FILTER], { error: "Unknown role filter" }).default("all"),
});
export type AdminUserQuery = z.infer<typeof adminUserQuery>;

/** Spec §3 Admin stats: display-ready figures. totalUsers counts customer accounts (staff are not users of the bank). */
export const adminStats = z.object({
  totalUsers: z.number().int(),
  activeAccounts: z.number().int(),
  totalBalance: z.string(),
  transactions: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStats>;

const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

export const testEmailInput = z.object({
  email: requiredText(ADMIN_MESSAGES.testEmailMissing, 254).pipe(
    z.email({ error: "Please enter a valid email address" }),
  ),
  firstName: requiredText(ADMIN_MESSAGES.testEmailMissing, 100),
});
export type TestEmailInput = z.infer<typeof testEmailInput>;
export const testEmailResponse = z.object({ message: z.string(), email: z.string() });
export type TestEmailResponse = z.infer<typeof testEmailResponse>;

export const paymentNotificationInput = z.object({
  email: requiredText(ADMIN_MESSAGES.paymentNotificationMissing, 254).pipe(
    z.email({ error: "Please enter a valid email address" }),
  ),
  recipientName: requiredText(ADMIN_MESSAGES.paymentNotificationMissing, 100),
  fromName: requiredText(ADMIN_MESSAGES.paymentNotificationMissing, 100),
  /** Dollars as typed, e.g. "250.00" or "$1,000"; parsed to cents on the server. */
  amount: z.union([z.string(), z.number()], { error: ADMIN_MESSAGES.paymentNotificationMissing }),
});
export type PaymentNotificationInput = z.infer<typeof paymentNotificationInput>;

export const userIdParams = z.object({ userId: z.uuid({ error: "Not a valid user id" }) });

/** Every staff role below owner; owners pass every check without being listed. */
const ANY_STAFF = ["support", "compliance", "finance"] as const;

/** /api/admin: the overview, customers, and the sample e-mails. */
export const ADMIN_ENDPOINTS = endpoints({
  // Overview and the read-only customer view (SSN masked, documents are compliance's).
  "GET /api/admin/stats": { access: ANY_STAFF, replies: { 200: adminStats } },
  "GET /api/admin/users": {
    access: ANY_STAFF,
    query: adminUserQuery,
    replies: { 200: adminUserPage },
    errors: ["invalid_cursor"],
  },
  "GET /api/admin/users/:userId": {
    access: ANY_STAFF,
    params: userIdParams,
    replies: { 200: adminUser },
    errors: ["NOT_FOUND"],
  },
  // Never an admin; a customer with money or open requests is refused, one with money history is closed instead.
  "DELETE /api/admin/users/:userId": {
    access: ["owner"],
    params: userIdParams,
    replies: { 200: messageResponse },
    errors: ["NOT_FOUND", "FORBIDDEN", "CONFLICT", "has_money_history"],
  },
  // Compliance lift a freeze; it waits for a second compliance member (maker-checker): 202 with the approval.
  "POST /api/admin/users/:userId/unfreeze": {
    access: ["compliance"],
    params: userIdParams,
    body: unfreezeInput,
    replies: { 200: messageResponse, 202: pendingApprovalResponse },
    errors: ["NOT_FOUND", "not_frozen", "reason_required", "approval_pending"],
  },
  // Sample e-mails go to staff addresses only.
  "POST /api/admin/test-email": {
    access: ["owner"],
    body: testEmailInput,
    replies: { 200: testEmailResponse },
    errors: ["test_mail_staff_only"],
  },
  "POST /api/admin/send-payment-notification": {
    access: ["finance"],
    body: paymentNotificationInput,
    replies: { 200: messageResponse },
    errors: ["VALIDATION", "test_mail_staff_only"],
  },
});
