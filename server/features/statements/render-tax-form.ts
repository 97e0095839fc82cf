import { formatMoney } from "@/contract/money";
import type { TaxFormRow } from "@/server/features/statements/tax-forms";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { createFramedDocument, fitText, HAIRLINE, INK, MUTED, PAGE } from "@/server/lib/pdf-frame";

const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const HALF = WIDTH / 2;

/** The recipient's TIN as a form prints it: all but the last four masked (IRS allows truncation on Copy B). */
export function maskTin(last4: string): string {
  return `***-**-${last4 || "****"}`;
}

/** "(212) 555-0100" from ten digits; any other length as given. */
function formatPhone(digits: string): string {
  return digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : digits;
}

function formatZip(zip: string): string {
  return zip.length === 9 ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip;
}

function formatEin(tin: string): string {
  return tin.length === 9 ? `${tin.slice(0, 2)}-${tin.slice(2)}` : tin;
}

function longDate(at: Date): string {
  const [year, month, day] = limitDayOf(at).split("-").map(Number) as [number, number, number];
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, month - 1, day, 12)),
  );
}

/** One labelled box of the form: the small caption at its top, its lines of value below. */
function drawBox(
  doc: PDFKit.PDFDocument,
  box: { x: number; y: number; w: number; h: number },
  label: string,
  lines: string[],
  options: { valueSize?: number; bold?: boolean } = {},
) {
  doc.rect(box.x, box.y, box.w, box.h).lineWidth(0.5).strokeColor(HAIRLINE).stroke();
  // A long caption takes two lines (as on the IRS's form); the value starts below it.
  doc.font("Helvetica").fontSize(7).fillColor(MUTED);
  const labelHeight = doc.heightOfString(label, { width: box.w - 12 });
  doc.text(label, box.x + 6, box.y + 5, { width: box.w - 12 });
  const size = options.valueSize ?? 9.5;
  const top = box.y + 9 + Math.max(8, labelHeight);
  doc
    .font(options.bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(size)
    .fillColor(INK);
  lines.forEach((line, index) => {
    doc.text(fitText(doc, line, box.w - 12), box.x + 6, top + index * (size + 3), {
      width: box.w - 12,
      lineBreak: false,
    });
  });
}

/** The CORRECTED check box, marked with an X on a corrected form. */
function drawCorrectedBox(doc: PDFKit.PDFDocument, x: number, y: number, corrected: boolean) {
  doc.rect(x, y, 10, 10).lineWidth(0.8).strokeColor(INK).stroke();
  if (corrected) {
    doc
      .moveTo(x + 2, y + 2)
      .lineTo(x + 8, y + 8)
      .moveTo(x + 8, y + 2)
      .lineTo(x + 2, y + 8)
      .lineWidth(1.2)
      .strokeColor(INK)
      .stroke();
  }
  doc
    .font(corrected ? "Helvetica-Bold" : "Helvetica")
    .fontSize(9)
    .fillColor(INK)
    .text(corrected ? "CORRECTED (checked)" : "CORRECTED (if checked)", x + 16, y + 1, { lineBreak: false });
}

/**
 * A Form 1099-INT, Copy B for the recipient, in the statements' frame: the payer's name, address, phone and TIN,
 * the recipient's TIN masked but the last four, name and address, Box 1 and the boxes Pillar pays nothing in,
 * and the CORRECTED box marked on a correction. One page, written at once (a form is small).
 */
export function renderTaxForm(form: TaxFormRow, now = new Date()): PDFKit.PDFDocument {
  const corrected = form.sequence > 1;
  const address = [
    form.recipient_street,
    [form.recipient_city, [form.recipient_state, formatZip(form.recipient_zip)].filter(Boolean).join(" ")]
      .filter(Boolean)
      .join(", "),
  ]
    .filter(Boolean)
    .join(", ");
  const doc = createFramedDocument({
    title: "Form 1099-INT",
    subtitle: `Interest Income \u00b7 Tax year ${form.tax_year}${corrected ? " \u00b7 Corrected" : ""}`,
    customerName: form.recipient_name,
    address: address || null,
    accountLine: "Copy B \u2014 For Recipient",
    generatedAt: now,
  });

  let y = PAGE.headerBottom;
  drawCorrectedBox(doc, LEFT, y, corrected);
  if (corrected) {
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        "This corrected form replaces the Form 1099-INT issued to you before for this tax year.",
        LEFT + 150,
        y + 2,
        { width: WIDTH - 150, lineBreak: false },
      );
  }
  y += 22;

  const left = (row: number, h: number) => ({ x: LEFT, y: y + row, w: HALF, h });
  const right = (row: number, h: number, col = 0) => ({
    x: LEFT + HALF + (col * HALF) / 2,
    y: y + row,
    w: HALF / 2,
    h,
  });

  drawBox(
    doc,
    left(0, 84),
    "PAYER'S name, street address, city or town, state or province, country, ZIP or foreign postal code, and telephone no.",
    [
      form.payer_name,
      form.payer_street,
      `${form.payer_city}, ${form.payer_state} ${formatZip(form.payer_zip)}`,
      formatPhone(form.payer_phone),
    ],
  );
  drawBox(doc, right(0, 42), "Payer's RTN (optional)", [""]);
  drawBox(doc, right(0, 84, 1), "OMB No. 1545-0112", [
    "Form 1099-INT",
    `For calendar year ${form.tax_year}`,
    "Interest Income",
  ]);
  drawBox(doc, right(42, 42), "1 Interest income", [formatMoney(form.interest_cents)], {
    valueSize: 12,
    bold: true,
  });

  drawBox(doc, { x: LEFT, y: y + 84, w: HALF / 2, h: 40 }, "PAYER'S TIN", [formatEin(form.payer_tin)]);
  drawBox(doc, { x: LEFT + HALF / 2, y: y + 84, w: HALF / 2, h: 40 }, "RECIPIENT'S TIN", [
    maskTin(form.tin_last4),
  ]);
  drawBox(doc, right(84, 40), "2 Early withdrawal penalty", [formatMoney(0)]);
  drawBox(doc, right(84, 40, 1), "Copy B", ["For Recipient"]);

  drawBox(doc, left(124, 40), "RECIPIENT'S name", [form.recipient_name]);
  drawBox(doc, right(124, 40), "3 Interest on U.S. Savings Bonds and Treasury obligations", [formatMoney(0)]);
  drawBox(doc, right(124, 40, 1), "4 Federal income tax withheld", [formatMoney(0)]);

  drawBox(doc, left(164, 40), "Street address (including apt. no.)", [form.recipient_street]);
  drawBox(doc, right(164, 40), "5 Investment expenses", [formatMoney(0)]);
  drawBox(doc, right(164, 40, 1), "8 Tax-exempt interest", [formatMoney(0)]);

  drawBox(doc, left(204, 40), "City or town, state or province, country, and ZIP or foreign postal code", [
    [form.recipient_city, [form.recipient_state, formatZip(form.recipient_zip)].filter(Boolean).join(" ")]
      .filter(Boolean)
      .join(", "),
  ]);
  drawBox(doc, { x: LEFT + HALF, y: y + 204, w: HALF, h: 40 }, "Account number (see instructions)", [
    form.account_number,
  ]);

  y += 262;
  doc
    .font("Helvetica-Bold")
    .fontSize(9)
    .fillColor(INK)
    .text("This is important tax information and is being furnished to the IRS.", LEFT, y, {
      width: WIDTH,
    });
  doc
    .font("Helvetica")
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      `Box 1 is the interest ${form.payer_name} paid into your savings account in ${form.tax_year}: each month's ` +
        "interest is paid on the month's last day (New York time). If you are required to file a return, a " +
        "negligence penalty or other sanction may be imposed on you if this income is taxable and the IRS " +
        "determines that it has not been reported. Issued " +
        `${longDate(form.created_at)}.`,
      LEFT,
      y + 16,
      { width: WIDTH },
    );
  doc.end();
  return doc;
}
