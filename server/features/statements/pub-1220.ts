import { sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { TAX_FORM_COLUMNS, type TaxFormRow, taxFormRow } from "@/server/features/statements/tax-forms";
import { decryptField } from "@/server/lib/crypto";
import type { TaxPayer } from "@/server/lib/tax-payer";

/**
 * Form 1099-INT returns in the IRS's electronic filing layout, Publication 1220 (decision 070): a T record (the
 * transmitter), one A record (the payer, type of return "6" = 1099-INT, amount code "1" = Box 1), a B record per
 * payee, the C record (end of payer: payee count and control totals) and the F record (end of transmission). No K
 * record: Pillar does not take part in the Combined Federal/State Filing Program (A position 6 blank).
 *
 * Every record is 750 bytes: 748 characters of fields and, in positions 749–750 (which Pub 1220 leaves blank or
 * for a carriage return/line feed), CR LF. Positions below are 1-based as Pub 1220 prints them.
 */
export const RECORD_LENGTH = 750;
const LINE_END = "\r\n";

/** A record being filled: 748 blanks, fields written at their Pub 1220 position. */
class RecordBuilder {
  private readonly chars: string[] = Array.from({ length: RECORD_LENGTH - LINE_END.length }, () => " ");

  /** Left-justified, blank-filled, cut to `length` (alphanumeric fields). */
  text(position: number, length: number, value: string): this {
    const cut = value.slice(0, length).padEnd(length, " ");
    for (let i = 0; i < length; i++) this.chars[position - 1 + i] = cut[i]!;
    return this;
  }

  /** Right-justified, zero-filled (money in cents, counts, sequence numbers). */
  number(position: number, length: number, value: number | bigint): this {
    const digits = String(value);
    if (!/^\d+$/.test(digits) || digits.length > length)
      throw new Error(`Pub 1220: ${value} does not fit ${length} digits at position ${position}`);
    return this.text(position, length, digits.padStart(length, "0"));
  }

  build(): string {
    return this.chars.join("") + LINE_END;
  }
}

/** Upper case ASCII; what Pub 1220 allows in a name (letters, digits, blanks, "&" and "-"), everything else dropped. */
export function filingName(value: string): string {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/[^A-Z0-9&\- ]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** An address line: as a name, with "/" and "#" too (apartment numbers). */
function filingAddress(value: string): string {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/[^A-Z0-9&\-/# ]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first four letters of the surname (Pub 1220's name control), blank when it has none. */
export function nameControl(lastName: string): string {
  return filingName(lastName)
    .replace(/[^A-Z0-9&-]/g, "")
    .slice(0, 4);
}

const digitsOnly = (value: string) => value.replace(/\D/g, "");

export interface Pub1220Options {
  year: number;
  /** original: every original return; corrections: each customer's current corrected return ("G"). */
  file: "original" | "corrections";
  test: boolean;
}

export interface Pub1220File {
  text: string;
  payees: number;
  totalCents: number;
}

/** The returns of `options.year` to file: originals (sequence 1, as issued) or the current corrections. */
async function findReturns(db: DbOrTx, options: Pub1220Options): Promise<TaxFormRow[]> {
  return queryRows(
    db,
    options.file === "original"
      ? sql`select ${TAX_FORM_COLUMNS} from tax_forms where tax_year = ${options.year} and sequence = 1
            order by user_id`
      : sql`select ${TAX_FORM_COLUMNS} from tax_forms
            where tax_year = ${options.year} and sequence > 1 and superseded_at is null order by user_id`,
    taxFormRow,
  );
}

/**
 * The file for `options.year`: opens each payee's TIN (sealed under DATA_KEY) only here. A TIN that cannot be opened
 * (another DATA_KEY) stops the export rather than file a return without it.
 */
export async function buildPub1220File(
  db: DbOrTx,
  dataKey: Buffer,
  payer: TaxPayer,
  options: Pub1220Options,
): Promise<Pub1220File> {
  const forms = await findReturns(db, options);
  let sequence = 0;
  const records: string[] = [];
  const add = (record: RecordBuilder) => {
    sequence += 1;
    records.push(record.number(500, 8, sequence).build());
  };

  // T: the transmitter (the bank itself, vendor indicator "I": software of its own).
  add(
    new RecordBuilder()
      .text(1, 1, "T")
      .number(2, 4, options.year)
      .text(6, 1, "")
      .text(7, 9, payer.tin)
      .text(16, 5, payer.tcc)
      .text(28, 1, options.test ? "T" : "")
      .text(30, 40, filingName(payer.name))
      .text(110, 40, filingName(payer.name))
      .text(190, 40, filingAddress(payer.street))
      .text(230, 40, filingAddress(payer.city))
      .text(270, 2, payer.state)
      .text(272, 9, payer.zip)
      .number(296, 8, forms.length)
      .text(304, 40, filingName(payer.contactName))
      .text(344, 15, payer.phone)
      .text(359, 50, payer.contactEmail.toUpperCase())
      .text(518, 1, "I"),
  );
  // A: the payer, 1099-INT ("6"), Box 1 only (amount code "1").
  add(
    new RecordBuilder()
      .text(1, 1, "A")
      .number(2, 4, options.year)
      .text(12, 9, payer.tin)
      .text(21, 4, nameControl(payer.name))
      .text(26, 2, "6")
      .text(28, 16, "1")
      .text(53, 40, filingName(payer.name))
      .text(133, 1, "0")
      .text(134, 40, filingAddress(payer.street))
      .text(174, 40, filingAddress(payer.city))
      .text(214, 2, payer.state)
      .text(216, 9, payer.zip)
      .text(225, 15, payer.phone),
  );
  let totalCents = 0;
  for (const form of forms) {
    let tin = "";
    if (form.tin_ciphertext) {
      try {
        tin = digitsOnly(decryptField(dataKey, form.tin_ciphertext));
      } catch {
        throw new Error(`Pub 1220: the TIN of form ${form.id} cannot be opened with this DATA_KEY`);
      }
    }
    totalCents += form.interest_cents;
    const amounts = new RecordBuilder()
      .text(1, 1, "B")
      .number(2, 4, options.year)
      .text(6, 1, options.file === "corrections" ? "G" : "")
      .text(7, 4, nameControl(form.recipient_last_name))
      .text(11, 1, tin ? "2" : "")
      .text(12, 9, tin)
      .text(21, 20, form.account_number)
      .number(55, 12, form.interest_cents);
    // Payment amounts 2–G: zero-filled, as Pub 1220 asks of an amount not reported.
    for (let box = 1; box < 16; box++) amounts.number(55 + box * 12, 12, 0);
    add(
      amounts
        .text(248, 40, filingName(`${form.recipient_first_name} ${form.recipient_last_name}`))
        .text(368, 40, filingAddress(form.recipient_street))
        .text(448, 40, filingAddress(form.recipient_city))
        .text(488, 2, form.recipient_state)
        .text(490, 9, digitsOnly(form.recipient_zip)),
    );
  }
  // C: end of payer, the payee count and Box 1's control total (totals 2–G zero).
  const end = new RecordBuilder().text(1, 1, "C").number(2, 8, forms.length).number(16, 18, totalCents);
  for (let box = 1; box < 16; box++) end.number(16 + box * 18, 18, 0);
  add(end);
  // F: end of transmission, one A record.
  add(new RecordBuilder().text(1, 1, "F").number(2, 8, 1).number(10, 21, 0).number(50, 8, forms.length));
  return { text: records.join(""), payees: forms.length, totalCents };
}
