import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { taxFormList } from "@/contract/tax-forms";

const month = z.string().regex(/^\d{4}-\d{2}$/);

/** A savings account's statement for one month, listed once the month's interest is paid (decision 069). */
export const savingsStatementItem = z.object({ accountId: z.string(), month });
export type SavingsStatementItem = z.infer<typeof savingsStatementItem>;

/**
 * GET /api/statements: the months (YYYY-MM, America/New_York) a checking statement can be downloaded for, and the
 * savings statements ready to download (a month whose interest is paid, or in which the account closed), newest first.
 */
export const statementList = z.object({ months: z.array(month), savings: z.array(savingsStatementItem) });
export type StatementList = z.infer<typeof statementList>;

/** What a statement request is refused with. */
export const STATEMENT_MESSAGES = {
  invalidMonth: "Statement month must look like 2026-11",
  noStatement: "No statement for that month",
  noSavingsAccount: "No savings statement for that account",
  noSavingsMonth: "No savings statement for that month: the account was not open then",
  savingsNotReady: "That month's savings statement is ready once its interest has been paid",
} as const;

/** Same-origin download link; the server answers with a PDF attachment. */
export const transferReceiptPdfPath = (transferId: string) => `/api/transfers/${transferId}/receipt.pdf`;

/**
 * Statements: always the signed-in customer's own (no user id in any URL). A month that is not YYYY-MM is a 400;
 * another customer's form or savings account answers as an unknown one (404); a savings month whose interest is
 * not paid yet is a 409. The PDFs are links, not fetched.
 */
export const STATEMENTS_ENDPOINTS = endpoints({
  "GET /api/statements": { access: "user", replies: { 200: statementList } },
  "GET /api/statements/:month.pdf": {
    access: "user",
    params: z.object({ month: z.string().max(16) }),
    file: "application/pdf",
    errors: ["VALIDATION", "NOT_FOUND"],
  },
  // Form 1099-INT (decision 070).
  "GET /api/statements/tax-forms": { access: "user", replies: { 200: taxFormList } },
  "GET /api/statements/tax-forms/:id.pdf": {
    access: "user",
    params: z.object({ id: z.string().max(64) }),
    file: "application/pdf",
    errors: ["NOT_FOUND"],
  },
  // A savings account's statement (decision 069).
  "GET /api/statements/savings/:accountId/:month.pdf": {
    access: "user",
    params: z.object({ accountId: z.string().max(64), month: z.string().max(16) }),
    file: "application/pdf",
    errors: ["VALIDATION", "NOT_FOUND", "CONFLICT"],
  },
});
