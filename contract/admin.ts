import { z } from "zod";
import { pageOf, pageQuery } from "@/contract/pages";

export const ADMIN_MESSAGES = {
  testEmailMissing: "Please enter both email and first name",
  paymentNotificationMissing: "Please fill all fields",
  /** 422 testMailStaffOnly: a sample e-mail in a customer's inbox would read as real (issue 46). */
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
