/**
 * The two-letter codes an applicant's US address may carry (spec §3: state, 2 characters): the 50 states, the
 * District of Columbia, the five inhabited territories (PR, GU, VI, AS, MP) and the military "states" of APO/FPO
 * addresses (AA, AE, AP), where service members abroad receive mail. Freely associated states (FM, MH, PW) are
 * other countries, and the Minor Outlying Islands (UM) have no residents.
 */
export const US_STATE_CODES: readonly string[] = [
  "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO",
  "MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY",
  "DC PR GU VI AS MP AA AE AP",
]
  .join(" ")
  .split(" ");

const CODES: ReadonlySet<string> = new Set(US_STATE_CODES);

/** Whether `code` (already upper case) is one of US_STATE_CODES. */
export function isUsStateCode(code: string): boolean {
  return CODES.has(code);
}
