import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@/contract/kyc";
import { accountRequests, auditLog, kycApplications, mailOutbox } from "@/server/db/schema";
import { SSN_INDEX_LABEL } from "@/server/features/kyc/create-kyc-application";
import { blindIndex, decryptField } from "@/server/lib/crypto";
import { GIF, PDF, PNG, uploadFile, WEBP } from "@/tests/support/files";
import { PERSONAL_KYC_FIELDS, postKycApplication, ssnSequence, uploadLicence } from "@/tests/support/kyc";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp();
const admin = setUpAdminUser(t);

/** A fresh SSN per call, so tests never collide by accident. */
const freshSsn = ssnSequence(200, 1000);

async function personalForm(user: SignedInUser, overrides: Record<string, unknown> = {}) {
  return {
    ...PERSONAL_KYC_FIELDS,
    ssn: freshSsn(),
    ...(await uploadLicence(t.app, user.cookie, { bytes: WEBP, contentType: "image/webp" })),
    ...overrides,
  };
}

async function businessForm(user: SignedInUser, overrides: Record<string, unknown> = {}) {
  const llc = await uploadFile(t.app, user.cookie, PDF, "application/pdf");
  const ein = await uploadFile(t.app, user.cookie, GIF, "image/gif");
  return {
    ...(await personalForm(user)),
    accountType: "business",
    companyName: "Engines Ltd",
    llcDocument: llc.objectPath,
    einDocument: ein.objectPath,
    ...overrides,
  };
}

const submit = (cookie: string | undefined, payload?: unknown) => postKycApplication(t.app, cookie, payload);

const status = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/kyc/status", headers: { cookie } });

const adminPut = (url: string, payload?: object) =>
  t.app.inject({ method: "PUT", url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });

async function rowsFor(userId: string) {
  const kyc = await t.database.db.select().from(kycApplications).where(eq(kycApplications.userId, userId));
  const requests = await t.database.db
    .select()
    .from(accountRequests)
    .where(eq(accountRequests.userId, userId));
  return { kyc, requests };
}

describe("GET /api/kyc/status", () => {
  it("is null on both sides before any application", async () => {
    const user = await createVerifiedUser(t.database);
    const res = await status(user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ kyc: null, accountRequest: null });
  });

  it("refuses a signed-out caller with 401", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/kyc/status" });
    expect(res.statusCode).toBe(401);
  });
});

describe("POST /api/kyc/create: who may apply", () => {
  it("refuses a signed-out caller with 401", async () => {
    expect((await submit(undefined, {})).statusCode).toBe(401);
  });

  it("asks a user without a phone number to add one first, whatever the body", async () => {
    const user = await createVerifiedUser(t.database, { phoneNumber: null });
    for (const body of [undefined, {}, await personalForm(user)]) {
      const res = await submit(user.cookie, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: KYC_MESSAGES.phoneRequired, phoneNumberRequired: true });
    }
    expect((await rowsFor(user.user.id)).kyc).toHaveLength(0);
  });
});

describe("POST /api/kyc/create: every validation rule, with nothing written", () => {
  let user: SignedInUser;
  let form: Record<string, unknown>;
  beforeAll(async () => {
    user = await createVerifiedUser(t.database);
    form = await personalForm(user);
  });

  const expectRefused = async (payload: unknown, message: string, status = 400) => {
    const res = await submit(user.cookie, payload);
    expect(res.statusCode, JSON.stringify(payload)).toBe(status);
    expect(res.json().message).toBe(message);
    const rows = await rowsFor(user.user.id);
    expect(rows.kyc).toHaveLength(0);
    expect(rows.requests).toHaveLength(0);
  };

  it("needs every step-1 field", async () => {
    await expectRefused(undefined, KYC_MESSAGES.requiredFields);
    for (const field of ["firstName", "lastName", "street", "city", "state", "zipCode", "ssn"]) {
      await expectRefused({ ...form, [field]: undefined }, KYC_MESSAGES.requiredFields);
      await expectRefused({ ...form, [field]: "   " }, KYC_MESSAGES.requiredFields);
      await expectRefused({ ...form, [field]: 42 }, KYC_MESSAGES.requiredFields);
    }
  });

  it("needs the state as 2 letters", async () => {
    for (const state of ["NYC", "N", "1A", "N.", "ÑY"]) {
      await expectRefused({ ...form, state }, KYC_MESSAGES.stateInvalid);
      expect((await submit(user.cookie, { ...form, state })).json()).toMatchObject({
        stateInvalid: true,
        field: "state",
      });
    }
  });

  it("needs a US state, DC or territory, with the state flag and field", async () => {
    for (const state of ["ZZ", "XX", "FM", "UM", "zz"]) {
      await expectRefused({ ...form, state }, KYC_MESSAGES.stateUnknown);
      const res = await submit(user.cookie, { ...form, state });
      expect(res.json()).toMatchObject({
        code: "VALIDATION",
        reason: "state_invalid",
        stateInvalid: true,
        field: "state",
      });
    }
  });

  it("needs the ZIP code as 5 digits", async () => {
    for (const zipCode of ["1234", "123456", "12a45", "12345-6789"]) {
      await expectRefused({ ...form, zipCode }, KYC_MESSAGES.zipInvalid);
    }
  });

  it("needs the SSN as 9 digits", async () => {
    for (const ssn of ["12345678", "1234567890", "12345678a", "123-45-678", "+23456789"]) {
      await expectRefused({ ...form, ssn }, KYC_MESSAGES.ssnInvalid);
    }
  });

  it("knows only personal and business accounts", async () => {
    await expectRefused({ ...form, accountType: "savings" }, KYC_MESSAGES.accountTypeInvalid);
  });

  it("caps field lengths", async () => {
    await expectRefused({ ...form, firstName: "A".repeat(101) }, KYC_MESSAGES.tooLong);
    await expectRefused({ ...form, street: "S".repeat(201) }, KYC_MESSAGES.tooLong);
  });

  it("needs both sides of the driving licence", async () => {
    await expectRefused({ ...form, drivingLicenseFront: undefined }, KYC_MESSAGES.licenseRequired);
    await expectRefused({ ...form, drivingLicenseBack: "" }, KYC_MESSAGES.licenseRequired);
  });

  it("needs a company name and both business documents for a business account", async () => {
    const business = await businessForm(user);
    await expectRefused({ ...business, companyName: " " }, KYC_MESSAGES.requiredFields);
    await expectRefused({ ...business, llcDocument: undefined }, KYC_MESSAGES.businessDocumentsRequired);
    await expectRefused({ ...business, einDocument: null }, KYC_MESSAGES.businessDocumentsRequired);
  });

  it("needs documents to be objects this user uploaded", async () => {
    const other = await createVerifiedUser(t.database);
    const theirs = await uploadFile(t.app, other.cookie, PNG);
    for (const ref of [
      theirs.objectPath,
      "/objects/uploads/00000000-0000-4000-8000-000000000000",
      "https://evil.example/x.png",
      "/objects/../../secrets.json",
      "/objects/uploads/..%2f..%2fsecrets.json",
    ]) {
      await expectRefused({ ...form, drivingLicenseFront: ref }, KYC_MESSAGES.documentNotFound);
    }
  });

  it("needs the upload to have finished", async () => {
    const reserved = await t.app.inject({
      method: "POST",
      url: "/api/objects/upload",
      headers: { cookie: user.cookie },
    });
    await expectRefused(
      { ...form, drivingLicenseBack: reserved.json().objectPath },
      KYC_MESSAGES.uploadIncomplete,
    );
  });

  it("takes images only for the driving licence: a PDF is refused", async () => {
    const pdf = await uploadFile(t.app, user.cookie, PDF, "image/png");
    await expectRefused(
      { ...form, drivingLicenseFront: pdf.objectPath },
      KYC_MESSAGES.licenseImagesOnly,
      415,
    );
  });

  it("refuses a body that is not JSON", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/kyc/create",
      headers: { cookie: user.cookie, "content-type": "application/x-www-form-urlencoded" },
      payload: "firstName=Ada",
    });
    expect(res.statusCode).toBe(415);
  });
});

describe("POST /api/kyc/create: a good application", () => {
  it("takes a state, DC, a territory or a military code, as the statement will print it", async () => {
    for (const state of ["tx", "DC", "PR", "GU", "AE"]) {
      const user = await createVerifiedUser(t.database);
      // The one-line address statements print is built from the checked fields, not taken as sent.
      const sent = await personalForm(user, { state, address: "1 Analytical Way, New York, ZZ 00000" });
      const res = await submit(user.cookie, sent);
      expect(res.statusCode, res.body).toBe(200);
      const address = `1 Analytical Way, New York, ${state.toUpperCase()} 10001`;
      expect(res.json().kyc).toMatchObject({ state: state.toUpperCase(), address });
      expect((await rowsFor(user.user.id)).kyc[0]).toMatchObject({ state: state.toUpperCase(), address });
    }
  });

  it("opens a pending KYC and a pending account request, SSN encrypted and masked", async () => {
    const user = await createVerifiedUser(t.database);
    const form = await personalForm(user, { ssn: "123-45-6789", state: "ny" });
    const res = await submit(user.cookie, form);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe(KYC_MESSAGES.submitted);
    expect(body.kyc).toMatchObject({
      userId: user.user.id,
      accountType: "personal",
      companyName: null,
      state: "NY",
      address: "1 Analytical Way, New York, NY 10001",
      ssn: "***-**-6789",
      drivingLicenseFront: form.drivingLicenseFront,
      llcDocument: null,
      status: "pending",
      reviewedAt: null,
    });
    expect(body.accountRequest).toMatchObject({
      kycApplicationId: body.kyc.id,
      status: "pending",
      accountNumber: null,
      routingNumber: null,
    });
    expect(body.accountRequest).not.toHaveProperty("adminNotes");
    expect(res.body).not.toContain("123456789");
    expect(res.body).not.toContain("123-45-6789");

    const [row] = (await rowsFor(user.user.id)).kyc;
    expect(row!.ssnCiphertext).not.toContain("6789");
    expect(decryptField(t.app.deps.config.dataKey, row!.ssnCiphertext)).toBe("123456789");
    expect(row!.ssnIndex).toBe(blindIndex(t.app.deps.config.dataKey, SSN_INDEX_LABEL, "123456789"));

    const now = await status(user.cookie);
    expect(now.json()).toEqual({ kyc: body.kyc, accountRequest: body.accountRequest });
    expect(now.body).not.toContain("123456789");

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, body.kyc.id));
    expect(audit.map((a) => a.action)).toEqual(["kyc.submit"]);
    expect(JSON.stringify(audit)).not.toContain("123456789");
    const mail = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(mail.map((m) => m.kind)).toEqual(["kyc_submitted"]);
  });

  it("accepts a business application with a PDF LLC document", async () => {
    const user = await createVerifiedUser(t.database);
    const res = await submit(user.cookie, await businessForm(user));
    expect(res.statusCode).toBe(200);
    expect(res.json().kyc).toMatchObject({ accountType: "business", companyName: "Engines Ltd" });
    expect(res.json().kyc.llcDocument).toMatch(/^\/objects\/uploads\//);
    expect(res.json().accountRequest.accountType).toBe("business");
  });

  it("accepts an S3-style URL with the private segment as a document value", async () => {
    const user = await createVerifiedUser(t.database);
    const form = await personalForm(user);
    const asUrl = `https://bucket.example/pillar/.private/${String(form.drivingLicenseFront).replace("/objects/", "")}?X-Amz-Signature=x`;
    const res = await submit(user.cookie, { ...form, drivingLicenseFront: asUrl });
    expect(res.statusCode).toBe(200);
    expect(res.json().kyc.drivingLicenseFront).toBe(form.drivingLicenseFront);
  });
});

describe("one application at a time, and one person per SSN", () => {
  it("refuses a second application while the first is pending, with 409", async () => {
    const user = await createVerifiedUser(t.database);
    expect((await submit(user.cookie, await personalForm(user))).statusCode).toBe(200);
    const again = await submit(user.cookie, await personalForm(user));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: KYC_MESSAGES.applicationExists, applicationExists: true });
    expect((await rowsFor(user.user.id)).kyc).toHaveLength(1);
  });

  it("lets only one of two simultaneous submissions through", async () => {
    const user = await createVerifiedUser(t.database);
    const [a, b] = [await personalForm(user), await personalForm(user)];
    const results = await Promise.all([submit(user.cookie, a), submit(user.cookie, b)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await rowsFor(user.user.id)).kyc).toHaveLength(1);
  });

  it("refuses an SSN already linked to another user, however it is written", async () => {
    const first = await createVerifiedUser(t.database);
    const second = await createVerifiedUser(t.database);
    expect((await submit(first.cookie, await personalForm(first, { ssn: "321-54-9876" }))).statusCode).toBe(
      200,
    );
    for (const ssn of ["321549876", "321-54-9876", " 321 54 9876 "]) {
      const res = await submit(second.cookie, await personalForm(second, { ssn }));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(
        expect.objectContaining({ message: KYC_MESSAGES.ssnDuplicate, ssnDuplicate: true }),
      );
    }
    expect((await rowsFor(second.user.id)).kyc).toHaveLength(0);
  });

  it("lets only one of two users racing with the same SSN through", async () => {
    const [a, b] = [await createVerifiedUser(t.database), await createVerifiedUser(t.database)];
    const ssn = freshSsn();
    const results = await Promise.all([
      submit(a.cookie, await personalForm(a, { ssn })),
      submit(b.cookie, await personalForm(b, { ssn })),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().ssnDuplicate).toBe(true);
  });

  it("allows a new application after a KYC rejection, with the same SSN, keeping the old one as history", async () => {
    const user = await createVerifiedUser(t.database);
    const ssn = freshSsn();
    const first = (await submit(user.cookie, await personalForm(user, { ssn }))).json();
    expect(
      (await adminPut(`/api/admin/kyc/${first.kyc.id}/reject`, { notes: "Blurry photo" })).statusCode,
    ).toBe(200);
    const rejected = (await status(user.cookie)).json();
    expect(rejected.kyc).toMatchObject({ status: "rejected", adminNotes: "Blurry photo" });

    const second = await submit(user.cookie, await personalForm(user, { ssn }));
    expect(second.statusCode).toBe(200);
    const now = (await status(user.cookie)).json();
    expect(now.kyc.id).toBe(second.json().kyc.id);
    expect(now.kyc.status).toBe("pending");
    expect(now.accountRequest.id).toBe(second.json().accountRequest.id);
    const rows = await rowsFor(user.user.id);
    expect(rows.kyc).toHaveLength(2);
    expect(rows.requests).toHaveLength(2);
  });

  it("allows a new application after the account request was rejected", async () => {
    const user = await createVerifiedUser(t.database);
    const first = (await submit(user.cookie, await personalForm(user))).json();
    const put = await adminPut(`/api/admin/account-requests/${first.accountRequest.id}`, {
      status: "rejected",
    });
    expect(put.statusCode).toBe(200);
    expect((await submit(user.cookie, await personalForm(user))).statusCode).toBe(200);
  });

  it("refuses a new application once approved", async () => {
    const user = await createVerifiedUser(t.database);
    const first = (await submit(user.cookie, await personalForm(user))).json();
    await adminPut(`/api/admin/kyc/${first.kyc.id}/approve`, {});
    await adminPut(`/api/admin/account-requests/${first.accountRequest.id}`, { status: "approved" });
    const again = await submit(user.cookie, await personalForm(user));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(KYC_MESSAGES.applicationApproved);
  });

  it("a rejected application no longer holds its SSN against another person", async () => {
    const [a, b] = [await createVerifiedUser(t.database), await createVerifiedUser(t.database)];
    const ssn = freshSsn();
    const first = (await submit(a.cookie, await personalForm(a, { ssn }))).json();
    await adminPut(`/api/admin/kyc/${first.kyc.id}/reject`, { notes: "Not your SSN" });
    expect((await submit(b.cookie, await personalForm(b, { ssn }))).statusCode).toBe(200);
    // …and the rejected one cannot be reopened while b holds it.
    const reset = await adminPut(`/api/admin/kyc/${first.kyc.id}/reset`);
    expect(reset.statusCode).toBe(409);
    expect(reset.json().ssnDuplicate).toBe(true);
  });
});

describe("POST /api/kyc/upload-document", () => {
  const attach = (cookie: string, payload: object) =>
    t.app.inject({ method: "POST", url: "/api/kyc/upload-document", headers: { cookie }, payload });

  it("answers 404 when there is no application yet", async () => {
    const user = await createVerifiedUser(t.database);
    const file = await uploadFile(t.app, user.cookie, PNG);
    const res = await attach(user.cookie, {
      documentType: "drivingLicenseFront",
      documentUrl: file.objectPath,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(KYC_MESSAGES.noApplication);
  });

  it("replaces a document of a pending application, audited", async () => {
    const user = await createVerifiedUser(t.database);
    const created = (await submit(user.cookie, await businessForm(user))).json();
    const file = await uploadFile(t.app, user.cookie, PDF, "application/pdf");
    const res = await attach(user.cookie, { documentType: "einDocument", documentUrl: file.objectPath });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: KYC_MESSAGES.documentUploaded,
      kyc: { einDocument: file.objectPath },
    });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, created.kyc.id));
    expect(audit.map((a) => a.action)).toContain("kyc.document_upload");
  });

  it("validates the type, the document and the field", async () => {
    const user = await createVerifiedUser(t.database);
    await submit(user.cookie, await personalForm(user));
    const pdf = await uploadFile(t.app, user.cookie, PDF, "application/pdf");
    const other = await createVerifiedUser(t.database);
    const theirs = await uploadFile(t.app, other.cookie, PNG);
    const cases: [object, number, string][] = [
      [{ documentType: "passport", documentUrl: pdf.objectPath }, 400, KYC_MESSAGES.documentTypeInvalid],
      [{ documentType: "drivingLicenseFront" }, 400, KYC_MESSAGES.documentNotFound],
      [
        { documentType: "drivingLicenseFront", documentUrl: pdf.objectPath },
        415,
        KYC_MESSAGES.licenseImagesOnly,
      ],
      [
        { documentType: "drivingLicenseBack", documentUrl: theirs.objectPath },
        400,
        KYC_MESSAGES.documentNotFound,
      ],
      [
        { documentType: "llcDocument", documentUrl: pdf.objectPath },
        400,
        KYC_MESSAGES.documentNotForPersonal,
      ],
    ];
    for (const [payload, code, message] of cases) {
      const res = await attach(user.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(code);
      expect(res.json().message).toBe(message);
    }
  });

  it("refuses changes once the application was reviewed, with a flag the client may ignore", async () => {
    const user = await createVerifiedUser(t.database);
    const created = (await submit(user.cookie, await personalForm(user))).json();
    await adminPut(`/api/admin/kyc/${created.kyc.id}/approve`, {});
    const file = await uploadFile(t.app, user.cookie, PNG);
    const res = await attach(user.cookie, {
      documentType: "drivingLicenseFront",
      documentUrl: file.objectPath,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: KYC_MESSAGES.applicationLocked, kycNotEditable: true });
  });
});
