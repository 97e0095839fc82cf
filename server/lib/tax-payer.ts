import { BRAND } from "@/contract/brand";
import { isUsStateCode } from "@/contract/us-states";

/**
 * The payer printed on every Form 1099-INT and named in the Publication 1220 file, and the transmitter of that
 * file (decision 070): the bank files its own returns (Pub 1220's vendor indicator "I", in-house). Every field has
 * an embedded default so development and tests run without setup; production sets the bank's real values through
 * the PAYER_* and IRS_* variables (README, "Configuration"). A form keeps the payer it was issued with.
 */
export interface TaxPayer {
  name: string;
  /** The payer's TIN (its EIN), nine digits, no hyphen. */
  tin: string;
  street: string;
  city: string;
  state: string;
  /** Five or nine digits. */
  zip: string;
  /** Digits only, 10 to 15. */
  phone: string;
  /** The Transmitter Control Code the IRS assigned for FIRE/IRIS filing (5 letters or digits). */
  tcc: string;
  /** Whom the IRS calls about the file. */
  contactName: string;
  contactEmail: string;
}

const DEFAULTS: TaxPayer = {
  name: `${BRAND.name} Bank, N.A.`,
  tin: "000000000",
  street: "1 Pillar Plaza",
  city: "New York",
  state: "NY",
  zip: "10001",
  phone: "2125550100",
  tcc: "00000",
  contactName: `${BRAND.name} Tax Reporting`,
  contactEmail: "tax@pillar.example",
};

const VARIABLES: Record<keyof TaxPayer, string> = {
  name: "PAYER_NAME",
  tin: "PAYER_TIN",
  street: "PAYER_STREET",
  city: "PAYER_CITY",
  state: "PAYER_STATE",
  zip: "PAYER_ZIP",
  phone: "PAYER_PHONE",
  tcc: "IRS_TCC",
  contactName: "IRS_CONTACT_NAME",
  contactEmail: "IRS_CONTACT_EMAIL",
};

// Pub 1220 fields are 40 characters; a longer name or address would be cut in the file.
const RULES: Record<keyof TaxPayer, [RegExp | ((v: string) => boolean), string]> = {
  name: [/^\S(.{0,38}\S)?$/, "1 to 40 characters"],
  tin: [/^\d{9}$/, "9 digits, no hyphen"],
  street: [/^\S(.{0,38}\S)?$/, "1 to 40 characters"],
  city: [/^\S(.{0,38}\S)?$/, "1 to 40 characters"],
  state: [isUsStateCode, "a two-letter US state code"],
  zip: [/^(\d{5}|\d{9})$/, "5 or 9 digits"],
  phone: [/^\d{10,15}$/, "10 to 15 digits"],
  tcc: [/^[A-Z0-9]{5}$/, "5 letters or digits"],
  contactName: [/^\S(.{0,38}\S)?$/, "1 to 40 characters"],
  contactEmail: [/^[^\s@]{1,40}@[^\s@]{1,40}\.[^\s@]{1,8}$/, "an e-mail address of at most 50 characters"],
};

/** The tax payer from the environment; `problems` says which variable is wrong and why. */
export function parseTaxPayer(env: NodeJS.ProcessEnv): { payer: TaxPayer; problems: string[] } {
  const payer = { ...DEFAULTS };
  const problems: string[] = [];
  for (const key of Object.keys(VARIABLES) as (keyof TaxPayer)[]) {
    const raw = env[VARIABLES[key]]?.trim();
    if (!raw) continue;
    const value = key === "state" || key === "tcc" ? raw.toUpperCase() : raw;
    const [rule, words] = RULES[key];
    const ok = typeof rule === "function" ? rule(value) : rule.test(value) && value.length <= 50;
    if (ok) payer[key] = value;
    else problems.push(`${VARIABLES[key]} must be ${words}`);
  }
  return { payer, problems };
}
