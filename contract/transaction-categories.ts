// No zod here: the dashboard and send-money pages import these, and zod costs ~26 KB gzip and its schema
// building on a phone (report-bundle.mjs checks the dashboard loads no zod).

/** Spec §3: categories with their labels and chart colours. */
export const CATEGORIES = {
  food: { label: "Food & Dining", color: "#16a34a" },
  transportation: { label: "Transportation", color: "#2563eb" },
  entertainment: { label: "Entertainment", color: "#9333ea" },
  shopping: { label: "Shopping", color: "#d97706" },
  bills: { label: "Bills & Utilities", color: "#dc2626" },
  healthcare: { label: "Healthcare", color: "#db2777" },
  education: { label: "Education", color: "#4f46e5" },
  personal: { label: "Personal Care", color: "#0d9488" },
  business: { label: "Business", color: "#65a30d" },
  other: { label: "Other", color: "#6b7280" },
} as const;
export type Category = keyof typeof CATEGORIES;
export const CATEGORY_KEYS = Object.keys(CATEGORIES) as [Category, ...Category[]];

/**
 * A move between the customer's own checking and savings (decision 068): shown as "Savings", and neither spending
 * nor money in, so the analytics leave it out. Not a category a customer can pick for a transfer.
 */
export const OWN_ACCOUNTS_CATEGORY = "savings";
export const OWN_ACCOUNTS_LABEL = "Savings";

/** Spec §5: no category chosen → guess from the purpose's keywords. */
export function guessCategory(purpose: string): Category {
  const p = purpose.toLowerCase();
  if (/food|restaurant|grocery/.test(p)) return "food";
  if (/gas|uber|transport/.test(p)) return "transportation";
  if (/movie|game|entertainment/.test(p)) return "entertainment";
  return "other";
}
