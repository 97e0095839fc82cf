import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_MESSAGES, READ_ACTIONS } from "@/contract/audit";
import { KYC_MESSAGES } from "@/contract/kyc";
import { auditLog, kycApplications } from "@/server/db/schema";
import { applyWithLicence, PERSONAL_KYC_FIELDS, postKycApplication, ssnSequence } from "@/tests/support/kyc";
import { insertKycApplication } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const freshSsn = ssnSequence(300, 3100);

let compliance: SignedInUser;
let support: SignedInUser;
beforeAll(async () => {
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
});

/** YYYY-MM-DD `years` ago today (UTC), shifted by `days`. */
function yearsAgo(years: number, days = 0): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const reveal = (who: SignedInUser, kycId: string, reason?: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/kyc/${kycId}/dob/reveal`,
    headers: { cookie: who.cookie },
    payload: reason === undefined ? {} : { reason },
  });

describe("date of birth in the identity check", () => {
  it("is required, must be a real day, and the applicant 18 or over; nothing is written otherwise", async () => {
    const user = await createVerifiedUser(t.database);
    const cases: [unknown, string][] = [
      [undefined, KYC_MESSAGES.dateOfBirthRequired],
      ["", KYC_MESSAGES.dateOfBirthRequired],
      ["1990-02-30", KYC_MESSAGES.dateOfBirthInvalid],
      ["12/05/1990", KYC_MESSAGES.dateOfBirthInvalid],
      [19900512, KYC_MESSAGES.dateOfBirthRequired],
      [yearsAgo(18, 2), KYC_MESSAGES.dateOfBirthUnderage],
      ["1890-01-01", KYC_MESSAGES.dateOfBirthTooOld],
    ];
    for (const [dateOfBirth, message] of cases) {
      const res = await postKycApplication(t.app, user.cookie, {
        ...PERSONAL_KYC_FIELDS,
        dateOfBirth,
        ssn: freshSsn(),
        drivingLicenseFront: "/objects/uploads/00000000-0000-0000-0000-000000000000",
        drivingLicenseBack: "/objects/uploads/00000000-0000-0000-0000-000000000000",
      });
      expect(res.statusCode, String(dateOfBirth)).toBe(400);
      expect(res.json().message, String(dateOfBirth)).toContain(message);
    }
    const rows = await t.database.db
      .select()
      .from(kycApplications)
      .where(eq(kycApplications.userId, user.user.id));
    expect(rows).toEqual([]);
  });

  it("accepts an applicant who turned 18 yesterday, stores the date, and answers it masked to the applicant", async () => {
    const user = await createVerifiedUser(t.database);
    const dateOfBirth = yearsAgo(18, -1);
    const { response } = await applyWithLicence(t.app, user.cookie, {
      ...PERSONAL_KYC_FIELDS,
      dateOfBirth,
      ssn: freshSsn(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().kyc.dateOfBirth).toBe(`**/**/${dateOfBirth.slice(0, 4)}`);
    const [row] = await t.database.db
      .select()
      .from(kycApplications)
      .where(eq(kycApplications.userId, user.user.id));
    expect(row!.dateOfBirth).toBe(dateOfBirth);
  });

  it("shows support the year only, and compliance the full date with an audited reason the customer sees", async () => {
    const user = await createVerifiedUser(t.database);
    const { response } = await applyWithLicence(t.app, user.cookie, {
      ...PERSONAL_KYC_FIELDS,
      dateOfBirth: "1984-07-21",
      ssn: freshSsn(),
    });
    const kycId = response.json().kyc.id as string;

    const panel = await t.app.inject({
      method: "GET",
      url: `/api/admin/chats/${user.user.id}/customer`,
      headers: { cookie: support.cookie },
    });
    expect(panel.statusCode, panel.body).toBe(200);
    expect(panel.json().dateOfBirth).toBe("**/**/1984");
    expect(panel.body).not.toContain("07-21");
    // Support may not reveal it; a compliance reveal needs a reason.
    expect((await reveal(support, kycId, "customer asked")).statusCode).toBe(403);
    const noReason = await reveal(compliance, kycId);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ reasonRequired: true, message: AUDIT_MESSAGES.reasonRequired });

    const list = await t.app.inject({
      method: "GET",
      url: "/api/admin/kyc-applications?limit=200",
      headers: { cookie: compliance.cookie },
    });
    expect(list.body).not.toContain("1984-07-21");

    const shown = await reveal(compliance, kycId, "Sanctions name match: compare with the list's DOB");
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toEqual({ dateOfBirth: "1984-07-21" });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, READ_ACTIONS.dateOfBirthRevealed));
    expect(audit.filter((a) => a.targetId === kycId)).toEqual([
      expect.objectContaining({
        actorId: compliance.user.id,
        actorRole: "compliance",
        subjectUserId: user.user.id,
      }),
    ]);
    const access = await t.app.inject({
      method: "GET",
      url: "/api/account/data-access",
      headers: { cookie: user.cookie },
    });
    expect(access.json().items.map((e: { description: string }) => e.description)).toContain(
      "Viewed your full date of birth",
    );
  });

  it("flags an application made before the question (null), without blocking its review", async () => {
    const user = await createVerifiedUser(t.database);
    const kycId = await insertKycApplication(t.database, user, "pending");
    const list = await t.app.inject({
      method: "GET",
      url: `/api/admin/kyc-applications?limit=200&q=${encodeURIComponent(user.email)}`,
      headers: { cookie: compliance.cookie },
    });
    const item = list.json().items.find((k: { id: string }) => k.id === kycId);
    expect(item.dateOfBirth).toBeNull();
    const revealed = await reveal(compliance, kycId, "Check the missing date");
    expect(revealed.json()).toEqual({ dateOfBirth: null });
    const approve = await t.app.inject({
      method: "PUT",
      url: `/api/admin/kyc/${kycId}/approve`,
      headers: { cookie: compliance.cookie },
      payload: {},
    });
    expect(approve.statusCode, approve.body).toBe(200);
  });
});
