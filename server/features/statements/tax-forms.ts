import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { TAX_FORM_MESSAGES, type TaxFormListItem } from "@/contract/tax-forms";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";

/** A stored Form 1099-INT as issued (decision 070): what the PDF prints and the Publication 1220 file carries. */
export const taxFormRow = z.object({
  id: z.string(),
  user_id: z.string(),
  tax_year: z.number().int(),
  sequence: z.number().int(),
  interest_cents: z.coerce.number().int(),
  payer_name: z.string(),
  payer_tin: z.string(),
  payer_street: z.string(),
  payer_city: z.string(),
  payer_state: z.string(),
  payer_zip: z.string(),
  payer_phone: z.string(),
  recipient_name: z.string(),
  recipient_first_name: z.string(),
  recipient_last_name: z.string(),
  recipient_street: z.string(),
  recipient_city: z.string(),
  recipient_state: z.string(),
  recipient_zip: z.string(),
  tin_last4: z.string(),
  tin_ciphertext: z.string(),
  account_number: z.string(),
  superseded_at: z.coerce.date().nullable(),
  created_at: z.coerce.date(),
});
export type TaxFormRow = z.infer<typeof taxFormRow>;

export const TAX_FORM_COLUMNS = sql.raw(
  `id::text as id, user_id::text as user_id, tax_year, sequence, interest_cents::text as interest_cents,
   payer_name, payer_tin, payer_street, payer_city, payer_state, payer_zip, payer_phone,
   recipient_name, recipient_first_name, recipient_last_name, recipient_street, recipient_city, recipient_state,
   recipient_zip, tin_last4, tin_ciphertext, account_number, superseded_at, created_at`,
);

/** GET /api/statements/tax-forms: the customer's own forms, newest year first, the latest of a year first. */
export async function findTaxForms(db: DbOrTx, userId: string): Promise<TaxFormListItem[]> {
  const rows = await queryRows(
    db,
    sql`select ${TAX_FORM_COLUMNS} from tax_forms where user_id = ${userId}::uuid
        order by tax_year desc, sequence desc`,
    taxFormRow,
  );
  return rows.map((row) => ({
    id: row.id,
    taxYear: row.tax_year,
    corrected: row.sequence > 1,
    superseded: row.superseded_at !== null,
    interest: formatMoney(row.interest_cents),
    interestCents: row.interest_cents,
    issuedAt: row.created_at.toISOString(),
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the customer's own forms; another customer's id, or none, is the same 404. */
export async function findOwnTaxForm(db: DbOrTx, userId: string, id: string): Promise<TaxFormRow> {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND", TAX_FORM_MESSAGES.notFound);
  const [row] = await queryRows(
    db,
    sql`select ${TAX_FORM_COLUMNS} from tax_forms where id = ${id}::uuid and user_id = ${userId}::uuid`,
    taxFormRow,
  );
  if (!row) throw new AppError("NOT_FOUND", TAX_FORM_MESSAGES.notFound);
  return row;
}
