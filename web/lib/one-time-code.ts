/** A 6-digit code field (e-mailed or from an authenticator app) keeps digits only, up to 6. */
export function cleanCode(value: string): string {
  return value.replace(/\D/g, "").slice(0, 6);
}
