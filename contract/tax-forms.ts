import { z } from "zod";
import { endpoints } from "@/contract/endpoint";

// Form 1099-INT for savings interest (decision 070): the customer's forms in Statements, and the
// yearly run's status and start for finance.

/** Interest of at least this many cents paid in a calendar year gets a Form 1099-INT (IRS: $10). */
export const TAX_FORM_THRESHOLD_CENTS = 1000;

/** One of the customer's forms, newest first. A corrected form supersedes the one before it; both are listed. */
export const taxFormListItem = z.object({
  id: z.uuid(),
  taxYear: z.number().int(),
  corrected: z.boolean(),
  superseded: z.boolean(),
  interest: z.string(),
  interestCents: z.number().int(),
  issuedAt: z.string(),
});
export const taxFormList = z.object({ forms: z.array(taxFormListItem) });
export type TaxFormList = z.infer<typeof taxFormList>;
export type TaxFormListItem = z.infer<typeof taxFormListItem>;

const taxYear = z.coerce
  .number({ error: "Tax year must be a year like 2026" })
  .int({ error: "Tax year must be a year like 2026" })
  .min(2000, { error: "Tax year must be a year like 2026" })
  .max(2999, { error: "Tax year must be a year like 2026" });

export const taxYearInput = z.object({ year: taxYear });

/** GET /api/admin/tax-forms/runs: the year asked, or by default the last one over (New York). */
export const taxFormRunQuery = z.object({ year: taxYear.optional() });

export const pub1220Query = taxYearInput.extend({
  /** original: every original return (sequence 1); corrections: each customer's current corrected return ("G"). */
  file: z.enum(["original", "corrections"]).default("original"),
  /** Marks the file as a test file (T record position 28) for the IRS's test system. */
  test: z.enum(["0", "1"]).default("0"),
});

export const taxFormRunView = z.object({
  id: z.uuid(),
  taxYear: z.number().int(),
  runNumber: z.number().int(),
  status: z.enum(["running", "done"]),
  /** Customers with a savings account opened by the year's end, and how many the run has looked at. */
  total: z.number().int(),
  done: z.number().int(),
  formsIssued: z.number().int(),
  corrections: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TaxFormRunView = z.infer<typeof taxFormRunView>;

/** GET /api/admin/tax-forms/runs?year= and the answer to starting a run: the year's runs and its current forms. */
export const taxFormRunStatus = z.object({
  taxYear: z.number().int(),
  /** Whether a run may start now: the year is over (New York, with the grace hour) and its interest all credited. */
  canRun: z.boolean(),
  /** Why not, when it may not. */
  blockedReason: z.string().nullable(),
  /** The latest run first. */
  runs: z.array(taxFormRunView),
  forms: z.object({
    /** Current (not superseded) forms. */
    count: z.number().int(),
    /** Current forms that are corrections. */
    corrected: z.number().int(),
    interestCents: z.number().int(),
    interest: z.string(),
  }),
});
export type TaxFormRunStatus = z.infer<typeof taxFormRunStatus>;

export const TAX_FORM_MESSAGES = {
  notFound: "No such tax form",
  yearOpen: "That tax year is not over yet: its forms could still change",
  interestPending: "Interest for that tax year is not all credited yet: run the interest job first",
} as const;

/**
 * Form 1099-INT's yearly run (decision 070; finance and owners): its status, its start (refused with a 409 while
 * the year is open or its interest not all credited; a run already working is answered), and the Publication
 * 1220 file for the IRS, every payee's full TIN in it (the export is audited before it answers).
 */
export const TAX_FORM_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/tax-forms/runs": {
    access: ["finance"],
    query: taxFormRunQuery,
    replies: { 200: taxFormRunStatus },
  },
  "POST /api/admin/tax-forms/runs": {
    access: ["finance"],
    body: taxYearInput,
    replies: { 202: taxFormRunStatus },
    errors: ["CONFLICT"],
  },
  "GET /api/admin/tax-forms/pub1220": { access: ["finance"], query: pub1220Query, file: "text/plain" },
});
