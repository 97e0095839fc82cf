import { z } from "zod";

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

/** Same-origin download links; the server answers with a PDF attachment. */
export const statementPdfPath = (month: string) => `/api/statements/${month}.pdf`;
export const savingsStatementPdfPath = (accountId: string, month: string) =>
  `/api/statements/savings/${accountId}/${month}.pdf`;
export const transferReceiptPdfPath = (transferId: string) => `/api/transfers/${transferId}/receipt.pdf`;
