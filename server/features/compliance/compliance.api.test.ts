import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPLIANCE_MESSAGES } from "@/contract/compliance";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { auditLog, complianceHits, sanctionsLists } from "@/server/db/schema";
import { runRescreenToEnd } from "@/server/features/compliance/rescreen";
import { learnActiveSanctionsList } from "@/server/features/compliance/sanctions-index";
import { createFundedCustomer, expectLedgerCleanAfterEach, requestTransfer } from "@/tests/support/money";
import {
  altRow,
  csv,
  LISTED_ETH,
  LISTED_USDT,
  listFiles,
  SDN_ROWS,
  sdnRow,
  sha256,
  uploadBody,
} from "@/tests/support/ofac-files";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser, signupBody } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

let compliance: SignedInUser;
let compliance2: SignedInUser;
let support: SignedInUser;
let finance: SignedInUser;
beforeAll(async () => {
  compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  compliance2 = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
});

const call = (method: "GET" | "POST" | "PUT", url: string, who: SignedInUser | null, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });

const upload = (files = listFiles(), who: SignedInUser = compliance) =>
  call("POST", "/api/admin/compliance/lists", who, uploadBody(files));

async function activeVersion(): Promise<number | null> {
  const [row] = await t.database.db.select().from(sanctionsLists).where(eq(sanctionsLists.isActive, true));
  return row?.version ?? null;
}

async function casesOf(userId: string) {
  const res = await call("GET", "/api/admin/compliance/cases?status=all&limit=200", compliance);
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json().items as { id: string; status: string; customer: { id: string } | null }[];
  return items.filter((c) => c.customer?.id === userId);
}

async function hitsOf(userId: string) {
  return t.database.db.select().from(complianceHits).where(eq(complianceHits.userId, userId));
}

/** A decision proposed by one compliance member and approved by a second (decision 032). */
async function decide(caseId: string, decision: string, note: string) {
  const proposed = await call("POST", `/api/admin/compliance/cases/${caseId}/decisions`, compliance, {
    decision,
    note,
  });
  expect(proposed.statusCode, proposed.body).toBe(200);
  const pending = proposed.json().case.decisions.find((d: { status: string }) => d.status === "pending");
  return call(
    "POST",
    `/api/admin/compliance/cases/${caseId}/decisions/${pending.id}/approve`,
    compliance2,
    {},
  );
}

const threshold = () => t.app.deps.config.sanctionsNameThreshold;
const randomEth = () => `0x${randomBytes(20).toString("hex")}`;

describe("loading OFAC's files", () => {
  it("loads a version with its file hashes and counts, audited, and makes it active", async () => {
    const files = listFiles();
    const res = await upload(files);
    expect(res.statusCode, res.body).toBe(200);
    const { list } = res.json();
    expect(list).toMatchObject({
      isActive: true,
      source: "upload",
      entryCount: 5,
      nameCount: 7,
      addressCount: 3,
    });
    const sdn = list.files.find((f: { name: string }) => f.name === "SDN.CSV");
    expect(sdn).toMatchObject({ sha256: sha256(files[0]!.text), records: 4 });
    expect(await activeVersion()).toBe(list.version);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, list.id));
    expect(audit).toMatchObject({
      action: "sanctions.load",
      actorId: compliance.user.id,
      actorRole: "compliance",
    });
  });

  it("refuses a bad file by name and line and keeps the previous version active", async () => {
    const before = await activeVersion();
    const [{ count: versionsBefore }] = (await t.database.query(
      "select count(*)::int as count from sanctions_lists",
    )) as { count: number }[];
    const badAlt = csv([altRow(9001, 101, "aka", "PETROFF, Iwan"), '9003,102,"aka"']);
    const res = await upload(listFiles({ "ALT.CSV": badAlt }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ listFileInvalid: true, file: "ALT.CSV", line: 2 });
    expect(res.json().message).toContain("ALT.CSV line 2: expected 5 columns, found 3");
    expect(res.json().message).toContain(COMPLIANCE_MESSAGES.listRejected);
    expect(await activeVersion()).toBe(before);
    const [{ count: versionsAfter }] = (await t.database.query(
      "select count(*)::int as count from sanctions_lists",
    )) as { count: number }[];
    expect(versionsAfter).toBe(versionsBefore);
  });

  it("refuses unknown file names, a load without SDN.CSV or CONS_PRIM.CSV, and a body that is not base64", async () => {
    const unknown = await upload([{ name: "notes.txt", text: "x" }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Unknown file "notes.txt"');
    const noPrimary = await upload(listFiles({ "SDN.CSV": undefined, "CONS_PRIM.CSV": undefined }));
    expect(noPrimary.statusCode).toBe(422);
    const notBase64 = await call("POST", "/api/admin/compliance/lists", compliance, {
      files: [{ name: "SDN.CSV", contentBase64: "%%%" }],
    });
    expect(notBase64.statusCode).toBe(400);
    expect(notBase64.json().message).toContain(COMPLIANCE_MESSAGES.notBase64);
  });

  it("refuses a 60 MB upload with 413 before reading it", async () => {
    const huge = "A".repeat(60 * 1024 * 1024);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/compliance/lists",
      headers: { cookie: compliance.cookie, "content-type": "application/json" },
      payload: `{"files":[{"name":"SDN.CSV","contentBase64":"${huge}"}]}`,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("lets only compliance (and owners) read cases and lists or load one", async () => {
    const customer = await createVerifiedUser(t.database);
    for (const who of [customer, support, finance]) {
      for (const [method, url] of [
        ["GET", "/api/admin/compliance/cases"],
        ["GET", "/api/admin/compliance/lists"],
        ["POST", "/api/admin/compliance/lists"],
      ] as const) {
        const res = await call(method, url, who, method === "POST" ? uploadBody(listFiles()) : undefined);
        expect(res.statusCode, `${url} ${who.user.staffRoles.join(",") || "customer"}`).toBe(403);
      }
    }
    expect((await call("GET", "/api/admin/compliance/cases", null)).statusCode).toBe(401);
    expect((await call("GET", "/api/admin/compliance/lists", admin)).statusCode).toBe(200);
  });
});

describe("screening points", () => {
  beforeAll(async () => {
    expect((await upload()).statusCode).toBe(200);
  });

  it("screens no name at sign-up (no date of birth: decision 053): a listed name opens no case", async () => {
    for (const [firstName, lastName] of [
      ["Iwan", "Petroff"],
      ["Ivan", "Smirnov"],
    ]) {
      const body = signupBody({ firstName, lastName });
      const res = await call("POST", "/api/auth/register", null, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(JSON.stringify(res.json())).not.toMatch(/sanction|review|PETROV/i);
      const userId = (
        await t.database.query("select id from users where email = $1", [body.email.toLowerCase()])
      )[0]!.id as string;
      expect(await hitsOf(userId)).toEqual([]);
      expect(await casesOf(userId)).toEqual([]);
    }
  });

  it("holds a transfer to a listed address (any case) under review, and only compliance's clearing releases it", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const res = await requestTransfer(t.app, customer, {
      amount: "100.00",
      cryptoAddress: LISTED_ETH.toLowerCase(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(TRANSFER_MESSAGES.underReview);
    expect(JSON.stringify(res.json())).not.toMatch(/sanction|OFAC|PETROV|list/i);
    const transferId = res.json().transferRequest.id as string;

    const [hit] = await hitsOf(customer.user.id);
    expect(hit).toMatchObject({
      screeningPoint: "transfer",
      subjectType: "address",
      transferId,
      entNum: 9001,
    });
    const account = await call("GET", "/api/account/summary", customer);
    expect(account.json().availableBalance).toBe("$400.00");

    // Finance cannot release it, whatever the path.
    const release = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(release.statusCode, release.body).toBe(409);
    expect(release.json()).toMatchObject({
      complianceHold: true,
      message: COMPLIANCE_MESSAGES.complianceHold,
    });

    const [open] = await casesOf(customer.user.id);
    const detail = await call("GET", `/api/admin/compliance/cases/${open!.id}`, compliance);
    expect(detail.json()).toMatchObject({ status: "open", heldTransfers: 1, hitCount: 1 });
    expect(detail.json().hits[0].matched).toContain("PETROV, Ivan Sergeyevich");

    const cleared = await decide(
      open!.id,
      "clear",
      "Address belongs to the customer's own exchange account, verified by statement",
    );
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().case.status).toBe("cleared");
    const again = await call("POST", `/api/admin/compliance/cases/${open!.id}/decisions`, compliance, {
      decision: "file",
      note: "second try",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().caseDecided).toBe(true);

    // Cleared: the next release is screened again; the same hit on the same transfer is not filed twice.
    const released = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().status).toBe("completed");
    expect(await hitsOf(customer.user.id)).toHaveLength(1);

    // The customer's data-access view says the account was reviewed, nothing more.
    const access = await call("GET", "/api/account/data-access", customer);
    expect(access.json().items.map((e: { description: string }) => e.description)).toContain(
      "Reviewed your account",
    );
    expect(JSON.stringify(access.json())).not.toMatch(/cleared|exchange account|PETROV/i);
  });

  it("keeps every transfer of a customer with a filed report held", async () => {
    const customer = await createFundedCustomer(t, admin, "300.00");
    const listed = await requestTransfer(t.app, customer, { amount: "10.00", cryptoAddress: LISTED_USDT });
    expect(listed.statusCode).toBe(201);
    const [open] = await casesOf(customer.user.id);
    const confirmed = await decide(open!.id, "file", "True match on the listed USDT address");
    expect(confirmed.json().case.status).toBe("filed");
    const other = await requestTransfer(t.app, customer, { amount: "10.00", cryptoAddress: randomEth() });
    expect(other.statusCode).toBe(201);
    expect(other.json().message).toBe(TRANSFER_MESSAGES.underReview);
    const release = await call(
      "PUT",
      `/api/admin/transfer-requests/${other.json().transferRequest.id}`,
      finance,
      { status: "approved" },
    );
    expect(release.json().complianceHold).toBe(true);
    // Nor can finance give it back: while the case holds the customer, returning a transfer is the case's reject
    // decision, made by two compliance members and reported (decision 048).
    const cancel = await call(
      "PUT",
      `/api/admin/transfer-requests/${other.json().transferRequest.id}`,
      finance,
      { status: "cancelled" },
    );
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json().complianceHold).toBe(true);
  });

  it("screens a saved recipient's address and name silently", async () => {
    const customer = await createFundedCustomer(t, admin, "20.00");
    const res = await call("POST", "/api/recipients", customer, { name: "Savings", address: LISTED_ETH });
    expect(res.statusCode, res.body).toBe(201);
    expect(JSON.stringify(res.json())).not.toMatch(/review|sanction/i);
    const [hit] = await hitsOf(customer.user.id);
    expect(hit).toMatchObject({ screeningPoint: "recipient", subjectType: "address" });
  });

  it("screens a KYC submission with the date of birth, and approval waits for the case", async () => {
    const listedDob = await createVerifiedUser(t.database, { firstName: "Omar", lastName: "Khalil" });
    // Same name as CONS 9501 but another date of birth: not a hit at KYC (the sign-up name had no date).
    const { applyWithLicence, PERSONAL_KYC_FIELDS } = await import("@/tests/support/kyc");
    const other = await applyWithLicence(t.app, listedDob.cookie, {
      ...PERSONAL_KYC_FIELDS,
      firstName: "Omar Farouk",
      lastName: "Khalil",
      dateOfBirth: "1992-06-01",
      ssn: "612-33-1001",
    });
    expect(other.response.statusCode, other.response.body).toBe(200);
    expect(await hitsOf(listedDob.user.id)).toEqual([]);

    const match = await createVerifiedUser(t.database, { firstName: "Mo", lastName: "Applicant" });
    const applied = await applyWithLicence(t.app, match.cookie, {
      ...PERSONAL_KYC_FIELDS,
      firstName: "Omar Farouk",
      lastName: "Khalil",
      dateOfBirth: "1980-02-02",
      ssn: "612-33-1002",
    });
    expect(applied.response.statusCode, applied.response.body).toBe(200);
    expect(applied.response.json().kyc.status).toBe("pending");
    const [hit] = await hitsOf(match.user.id);
    expect(hit).toMatchObject({ screeningPoint: "kyc", listSource: "CONS", entNum: 9501 });

    const approve = await call(
      "PUT",
      `/api/admin/kyc/${applied.response.json().kyc.id}/approve`,
      compliance,
      {},
    );
    expect(approve.statusCode, approve.body).toBe(409);
    expect(approve.json().complianceCaseOpen).toBe(true);
  });
});

describe("re-screening after a new list", () => {
  it("screens a payee against a list loaded since this instance last looked: the transfer function sends it back", async () => {
    const [before] = await t.database.db
      .select({ id: sanctionsLists.id, version: sanctionsLists.version })
      .from(sanctionsLists)
      .where(eq(sanctionsLists.isActive, true));
    const newRow = sdnRow(9200, "NOVAK, Petra", "individual", "CYBER2", "DOB 03 Apr 1979.");
    const loaded = await upload(listFiles({ "SDN.CSV": csv([...SDN_ROWS, newRow]) }));
    expect(loaded.statusCode, loaded.body).toBe(200);
    // This instance still takes the earlier version for the active one (as one that missed the load would).
    learnActiveSanctionsList(t.database.db, before ?? null);
    const customer = await createFundedCustomer(t, admin, "50.00");
    const res = await requestTransfer(t.app, customer, {
      amount: "5.00",
      recipientName: "Petra Novak",
      cryptoAddress: randomEth(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(TRANSFER_MESSAGES.underReview);
    const [hit] = await hitsOf(customer.user.id);
    expect(hit).toMatchObject({
      screeningPoint: "transfer",
      subjectType: "name",
      entNum: 9200,
      listVersion: loaded.json().list.version,
      transferId: res.json().transferRequest.id,
    });
  });

  it("finds a saved address the new version lists, and a second load of the same files files nothing new", async () => {
    const customer = await createFundedCustomer(t, admin, "50.00");
    const address = randomEth();
    expect((await call("POST", "/api/recipients", customer, { name: "Friend", address })).statusCode).toBe(
      201,
    );
    const pending = await requestTransfer(t.app, customer, { amount: "5.00", cryptoAddress: address });
    expect(pending.statusCode).toBe(201);
    expect(await hitsOf(customer.user.id)).toEqual([]);

    const newRow = sdnRow(
      9100,
      "NEWLY LISTED LTD",
      null,
      "CYBER2",
      `Digital Currency Address - USDC ${address.toUpperCase().replace("0X", "0x")}.`,
    );
    const files = listFiles({ "SDN.CSV": csv([...SDN_ROWS, newRow]) });
    const first = await upload(files);
    expect(first.statusCode, first.body).toBe(200);
    // The load queued the re-screen; the jobs room runs it (here, its passes by hand).
    expect(first.json().rescreen).toMatchObject({ status: "queued", listId: first.json().list.id });
    const firstRun = await runRescreenToEnd(t.database.db, threshold(), first.json().list.id);
    expect(firstRun.newHits).toBeGreaterThanOrEqual(2);
    const hits = await hitsOf(customer.user.id);
    expect(hits.map((h) => [h.screeningPoint, h.transferId !== null])).toEqual(
      expect.arrayContaining([
        ["rescreen", false],
        ["rescreen", true],
      ]),
    );

    const second = await upload(files);
    expect(second.statusCode).toBe(200);
    expect(second.json().list.version).toBe(first.json().list.version + 1);
    expect(await runRescreenToEnd(t.database.db, threshold(), second.json().list.id)).toMatchObject({
      status: "done",
      newHits: 0,
    });
    expect(await hitsOf(customer.user.id)).toHaveLength(hits.length);
    expect(await casesOf(customer.user.id)).toHaveLength(1);

    // The held transfer does not leave.
    const release = await call(
      "PUT",
      `/api/admin/transfer-requests/${pending.json().transferRequest.id}`,
      finance,
      { status: "approved" },
    );
    expect(release.json().complianceHold).toBe(true);
  });
});
