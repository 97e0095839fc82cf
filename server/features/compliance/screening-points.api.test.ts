import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { complianceCases, complianceHits, rescreenRuns, users } from "@/server/db/schema";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { runRescreenToEnd } from "@/server/features/compliance/rescreen";
import { hasComplianceHold } from "@/server/features/compliance/screen";
import { PDF, uploadFile } from "@/tests/support/files";
import {
  applyWithLicence,
  PERSONAL_KYC_FIELDS,
  postKycApplication,
  ssnSequence,
  uploadLicence,
} from "@/tests/support/kyc";
import { createApprovedCustomer, expectLedgerCleanAfterEach } from "@/tests/support/money";
import { realListFiles } from "@/tests/support/real-ofac-list";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn, type SignedInUser, signupBody } from "@/tests/support/users";

/**
 * Decision 053 on the real OFAC extract of 2024-05-03: sign-up has no date of birth and screens no
 * name; the KYC submission screens the applied name with its date of birth as a person (and a company as an
 * entity), and that decides. MLADIC, Ratko: SDN 7744, individual, DOB 12 Mar 1943.
 */
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
expectLedgerCleanAfterEach(t);

const MLADIC = 7744;
const MLADIC_DOB = "1943-03-12";
const freshSsn = ssnSequence(400, 3000);

let listId: string;
let compliance: SignedInUser;
beforeAll(async () => {
  ({ id: listId } = await loadSanctionsList(t.database.db, realListFiles(), {
    actorId: null,
    actorRole: null,
    source: "cli",
  }));
  // Nobody was a customer when the list was loaded: its re-screen finds nothing and is done.
  await runRescreenToEnd(t.database.db, t.app.deps.config.sanctionsNameThreshold, listId);
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  // The real list's load on the embedded database, on a loaded machine, takes minutes.
}, 300_000);

const call = (
  method: "GET" | "POST" | "PUT",
  url: string,
  who: SignedInUser | { cookie: string },
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload }),
  });

const hitsOf = (userId: string) =>
  t.database.db.select().from(complianceHits).where(eq(complianceHits.userId, userId));
const casesOf = (userId: string) =>
  t.database.db.select().from(complianceCases).where(eq(complianceCases.userId, userId));

/** Registers over HTTP, marks the e-mail proved (the mail journey has its own tests) and signs in. */
async function register(firstName: string, lastName: string) {
  const body = signupBody({ firstName, lastName });
  const res = await t.app.inject({ method: "POST", url: "/api/auth/register", payload: body });
  expect(res.statusCode, res.body).toBe(200);
  const [user] = await t.database.db
    .update(users)
    .set({ isEmailVerified: true, phoneNumber: "+12125550100" })
    .where(eq(users.email, body.email.toLowerCase()))
    .returning({ id: users.id });
  return { userId: user!.id, cookie: await logIn(t.app, body.email, body.password) };
}

describe("sign-up", () => {
  it("screens no name: a listed name opens no case and holds nothing, and a KYC with another date of birth clears the customer to move money", async () => {
    const customer = await register("Ratko", "Mladic");
    expect(await hitsOf(customer.userId)).toEqual([]);
    expect(await casesOf(customer.userId)).toEqual([]);
    expect(await hasComplianceHold(t.database.db, customer.userId)).toBe(false);

    // The KYC decides: the same name born 47 years later is not the listed man.
    const applied = await applyWithLicence(t.app, customer.cookie, {
      ...PERSONAL_KYC_FIELDS,
      firstName: "Ratko",
      lastName: "Mladic",
      dateOfBirth: "1990-06-01",
      ssn: freshSsn(),
    });
    expect(applied.response.statusCode, applied.response.body).toBe(200);
    expect(await hitsOf(customer.userId)).toEqual([]);
    const { kyc, accountRequest } = applied.response.json();
    const approveKyc = await call("PUT", `/api/admin/kyc/${kyc.id}/approve`, compliance, {});
    expect(approveKyc.statusCode, approveKyc.body).toBe(200);
    const approveAccount = await call("PUT", `/api/admin/account-requests/${accountRequest.id}`, compliance, {
      status: "approved",
    });
    expect(approveAccount.statusCode, approveAccount.body).toBe(200);
    const summary = await call("GET", "/api/account/summary", customer);
    expect(summary.json().canSendMoney).toBe(true);
    expect(await hasComplianceHold(t.database.db, customer.userId)).toBe(false);
  });
});

describe("KYC submission", () => {
  it("screens the applied name with the listed date of birth as a person: the hit holds, with its score's parts", async () => {
    const customer = await register("Sam", "Taylor");
    const applied = await applyWithLicence(t.app, customer.cookie, {
      ...PERSONAL_KYC_FIELDS,
      firstName: "Ratko",
      lastName: "Mladic",
      dateOfBirth: MLADIC_DOB,
      ssn: freshSsn(),
    });
    expect(applied.response.statusCode, applied.response.body).toBe(200);
    expect(applied.response.json().kyc.status).toBe("pending");
    expect(JSON.stringify(applied.response.json())).not.toMatch(/sanction|OFAC|listed|7744/i);
    const hits = await hitsOf(customer.userId);
    expect(hits.map((h) => [h.screeningPoint, h.subjectType, h.entNum, h.subject])).toEqual([
      ["kyc", "name", MLADIC, "Ratko Mladic"],
    ]);
    expect(hits[0]!.scoreParts).toMatchObject({ listedType: "individual", weakAlias: false });
    expect(hits[0]!.scoreParts!.name).toBeGreaterThanOrEqual(t.app.deps.config.sanctionsNameThreshold);
    expect(await hasComplianceHold(t.database.db, customer.userId)).toBe(true);

    // The case shows the hit's parts to the reviewer, and the identity check waits for the case.
    const [open] = await casesOf(customer.userId);
    const detail = await call("GET", `/api/admin/compliance/cases/${open!.id}`, compliance);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().hits[0]).toMatchObject({
      entNum: MLADIC,
      scoreParts: { listedType: "individual", weakAlias: false },
    });
    const approve = await call(
      "PUT",
      `/api/admin/kyc/${applied.response.json().kyc.id}/approve`,
      compliance,
      {},
    );
    expect(approve.statusCode).toBe(409);
    expect(approve.json().complianceCaseOpen).toBe(true);
  });

  it("screens a business's company name as an entity, never against a listed person", async () => {
    const customer = await register("Dana", "Whitfield");
    const llc = await uploadFile(t.app, customer.cookie, PDF, "application/pdf");
    const ein = await uploadFile(t.app, customer.cookie, PDF, "application/pdf");
    const licence = await uploadLicence(t.app, customer.cookie);
    const res = await postKycApplication(t.app, customer.cookie, {
      ...PERSONAL_KYC_FIELDS,
      ...licence,
      accountType: "business",
      companyName: "Al Wasel and Babel General Trading LLC",
      firstName: "Dana",
      lastName: "Whitfield",
      ssn: freshSsn(),
      llcDocument: llc.objectPath,
      einDocument: ein.objectPath,
    });
    expect(res.statusCode, res.body).toBe(200);
    const hits = await hitsOf(customer.userId);
    expect(hits.map((h) => [h.subject, h.entNum])).toContainEqual([
      "Al Wasel and Babel General Trading LLC",
      8210,
    ]);
    for (const hit of hits) expect(hit.scoreParts?.listedType).not.toBe("individual");
  });
});

describe("the re-screen job", () => {
  it("screens customers with an application by name and date of birth, files each hit once, and a second run of the same files files nothing", async () => {
    // Written directly, as a customer of long ago would be: approved, never screened against this list.
    const listed = await createApprovedCustomer(t.database, { firstName: "Ratko", lastName: "Mladic" });
    await t.database.db.execute(
      sql`update kyc_applications set date_of_birth = ${MLADIC_DOB} where user_id = ${listed.user.id}::uuid`,
    );
    const namesake = await createApprovedCustomer(t.database, { firstName: "Ratko", lastName: "Mladic" });
    await t.database.db.execute(
      sql`update kyc_applications set date_of_birth = '1991-01-01' where user_id = ${namesake.user.id}::uuid`,
    );
    // Signed up, no application: no date of birth, so no name screen (decision 053).
    const noKyc = await createVerifiedUser(t.database, { firstName: "Ratko", lastName: "Mladic" });

    const upload = await call("POST", "/api/admin/compliance/lists", compliance, {
      files: realListFiles().map((f) => ({
        name: f.name,
        contentBase64: Buffer.from(f.bytes).toString("base64"),
      })),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json().rescreen).toMatchObject({ status: "queued", customers: 0 });
    const newListId = upload.json().list.id as string;

    // Batches of 2: several passes, each its own transaction with the cursor.
    const threshold = t.app.deps.config.sanctionsNameThreshold;
    const batches: number[] = [];
    const run = await runRescreenToEnd(t.database.db, threshold, newListId, {
      batchSize: 2,
      onBatch: (r) => batches.push(r.customers),
    });
    expect(run).toMatchObject({ status: "done", newHits: 1 });
    expect(run.customers).toBe(run.total);
    expect(batches.length).toBeGreaterThan(1);
    expect((await hitsOf(listed.user.id)).map((h) => [h.screeningPoint, h.entNum])).toEqual([
      ["rescreen", MLADIC],
    ]);
    expect(await hitsOf(namesake.user.id)).toEqual([]);
    expect(await hitsOf(noKyc.user.id)).toEqual([]);

    const lists = await call("GET", "/api/admin/compliance/lists", compliance);
    expect(lists.json().rescreens[0]).toMatchObject({ listId: newListId, status: "done", newHits: 1 });
    expect(lists.json().items[0].rescreenedAt).not.toBeNull();

    // The same files again: a new version, its own run, no new hit.
    const again = await loadSanctionsList(t.database.db, realListFiles(), {
      actorId: null,
      actorRole: null,
      source: "cli",
    });
    const second = await runRescreenToEnd(t.database.db, threshold, again.id);
    expect(second).toMatchObject({ status: "done", newHits: 0 });
    expect(await hitsOf(listed.user.id)).toHaveLength(1);
    const runs = await t.database.db.select().from(rescreenRuns);
    expect(runs.every((r) => r.status === "done")).toBe(true);
  }, 240_000);
});
