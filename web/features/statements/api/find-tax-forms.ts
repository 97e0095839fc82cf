import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const TAX_FORMS_KEY = ["/api/statements/tax-forms"] as const;

/** GET /api/statements/tax-forms: the customer's Forms 1099-INT, newest year first, a correction before its original. */
export function findTaxForms({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/statements/tax-forms", {}, { signal });
}

export const taxFormsQuery = queryOptions({
  queryKey: TAX_FORMS_KEY,
  queryFn: ({ signal }) => findTaxForms({ signal }),
});

export function useTaxForms() {
  return useQuery(taxFormsQuery);
}
