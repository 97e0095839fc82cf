import { BRAND } from "@/contract/brand";
import { isUsStateCode } from "@/contract/us-states";

/**
 * Who files Pillar's reports with FinCEN (the SAR's filing institution, transmitter and contact office, decision
 * 055). Every field has an embedded default so development and tests run without setup; production sets the
 * bank's real values through the FILING_INSTITUTION_* variables (README, "Configuration").
 */
export interface FilingInstitution {
  name: string;
  /** Nine digits, no hyphen. */
  ein: string;
  street: string;
  city: string;
  state: string;
  /** Five or nine digits. */
  zip: string;
  /** FinCEN's federal regulator code: 1 Federal Reserve, 2 FDIC, 3 NCUA, 4 OCC, 7 IRS, 99 not applicable. */
  regulator: string;
  /** The contact office's name and phone (digits only) that FinCEN and law enforcement call. */
  contactOffice: string;
  contactPhone: string;
  /** The Transmitter Control Code FinCEN assigns to a batch filer (8 characters). */
  transmitterControlCode: string;
}

const DEFAULTS: FilingInstitution = {
  name: `${BRAND.name} Bank, N.A.`,
  ein: "000000000",
  street: "1 Pillar Plaza",
  city: "New York",
  state: "NY",
  zip: "10001",
  regulator: "4",
  contactOffice: `${BRAND.name} BSA/AML Compliance Office`,
  contactPhone: "2125550100",
  transmitterControlCode: "PBSA0000",
};

const VARIABLES: Record<keyof FilingInstitution, string> = {
  name: "FILING_INSTITUTION_NAME",
  ein: "FILING_INSTITUTION_EIN",
  street: "FILING_INSTITUTION_STREET",
  city: "FILING_INSTITUTION_CITY",
  state: "FILING_INSTITUTION_STATE",
  zip: "FILING_INSTITUTION_ZIP",
  regulator: "FILING_INSTITUTION_REGULATOR",
  contactOffice: "FILING_INSTITUTION_CONTACT_OFFICE",
  contactPhone: "FILING_INSTITUTION_CONTACT_PHONE",
  transmitterControlCode: "FILING_INSTITUTION_TCC",
};

const RULES: Record<keyof FilingInstitution, [RegExp | ((v: string) => boolean), string]> = {
  name: [/^\S(.{0,148}\S)?$/, "1 to 150 characters"],
  ein: [/^\d{9}$/, "9 digits, no hyphen"],
  street: [/^\S(.{0,98}\S)?$/, "1 to 100 characters"],
  city: [/^\S(.{0,48}\S)?$/, "1 to 50 characters"],
  state: [isUsStateCode, "a two-letter US state code"],
  zip: [/^(\d{5}|\d{9})$/, "5 or 9 digits"],
  regulator: [/^(1|2|3|4|6|7|9|13|99)$/, "one of FinCEN's regulator codes (1, 2, 3, 4, 6, 7, 9, 13, 99)"],
  contactOffice: [/^\S(.{0,148}\S)?$/, "1 to 150 characters"],
  contactPhone: [/^\d{10,16}$/, "10 to 16 digits"],
  transmitterControlCode: [/^[A-Z0-9]{8}$/, "8 letters or digits"],
};

/** The filing institution from the environment; `problems` says which variable is wrong and why. */
export function parseFilingInstitution(env: NodeJS.ProcessEnv): {
  institution: FilingInstitution;
  problems: string[];
} {
  const institution = { ...DEFAULTS };
  const problems: string[] = [];
  for (const key of Object.keys(VARIABLES) as (keyof FilingInstitution)[]) {
    const raw = env[VARIABLES[key]]?.trim();
    if (!raw) continue;
    const value = key === "state" || key === "transmitterControlCode" ? raw.toUpperCase() : raw;
    const [rule, words] = RULES[key];
    const ok = typeof rule === "function" ? rule(value) : rule.test(value);
    if (ok) institution[key] = value;
    else problems.push(`${VARIABLES[key]} must be ${words}`);
  }
  return { institution, problems };
}
