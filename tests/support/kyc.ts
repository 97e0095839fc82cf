import type { App } from "@/server/app";
import { PNG, uploadFile } from "@/tests/support/files";

/** The personal application's text fields as the KYC page sends them (SSN and documents apart). */
export const PERSONAL_KYC_FIELDS = {
  accountType: "personal",
  firstName: "Ada",
  lastName: "Lovelace",
  dateOfBirth: "1985-12-10",
  street: "1 Analytical Way",
  city: "New York",
  state: "NY",
  zipCode: "10001",
} as const;

/**
 * A generator of SSNs unique within one test file: `areaBase` + a pid-derived offset, then a counter, so
 * applications never collide on the duplicate-SSN check by accident.
 */
export function ssnSequence(areaBase: number, serialBase: number): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    return `${areaBase + ((process.pid + counter) % 500)}-${String(10 + (counter % 89)).padStart(2, "0")}-${String(serialBase + counter).slice(-4)}`;
  };
}

/** POST /api/kyc/create as the given session (none: signed out), with the body as is. */
export const postKycApplication = (app: App, cookie: string | undefined, payload?: unknown) =>
  app.inject({
    method: "POST",
    url: "/api/kyc/create",
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** Uploads both sides of the driving licence (front a PNG; the back `back`, a PNG by default). */
export async function uploadLicence(
  app: App,
  cookie: string,
  back: { bytes: Buffer; contentType: string } = { bytes: PNG, contentType: "image/png" },
) {
  const front = await uploadFile(app, cookie, PNG);
  const backSide = await uploadFile(app, cookie, back.bytes, back.contentType);
  return { drivingLicenseFront: front.objectPath, drivingLicenseBack: backSide.objectPath };
}

/** Uploads a licence and submits `fields` with it; answers the response and the two document paths. */
export async function applyWithLicence(app: App, cookie: string, fields: Record<string, unknown>) {
  const licence = await uploadLicence(app, cookie);
  const response = await postKycApplication(app, cookie, { ...fields, ...licence });
  return { response, ...licence };
}
