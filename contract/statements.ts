import { z } from "zod";

/** GET /api/statements: the months (YYYY-MM, America/New_York) a statement can be downloaded for, newest first. */
export const statementList = z.object({ months: z.array(z.string().regex(/^\d{4}-\d{2}$/)) });
export type StatementList = z.infer<typeof statementList>;

/** Same-origin download links; the server answers with a PDF attachment. */
export const statementPdfPath = (month: string) => `/api/statements/${month}.pdf`;
export const transferReceiptPdfPath = (transferId: string) => `/api/transfers/${transferId}/receipt.pdf`;
