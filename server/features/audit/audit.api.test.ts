import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_MESSAGES, READ_ACTIONS } from "@/contract/audit";
import { PAGE_MESSAGES } from "@/contract/pages";
import { STAFF_MESSAGES, type StaffRole } from "@/contract/staff";
import { auditLog } from "@/server/db/schema";
import { applyWithLicence } from "@/tests/support/kyc";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

let customer: SignedInUser;
let stranger: SignedInUser;
let kycId: string;
let documentPath: string;
const staff = {} as Record<StaffRole, SignedInUser>;
const SSN = `${200 + (process.pid % 500)}-41-7306`;

const newYorkDay = (d: Date) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(d);

/** A customer with a submitted application (real SSN sealed with the app's key, real uploads). */
async function applicant(ssn: string) {
  const user = await createVerifiedUser(t.database);
  const { response: res, drivingLicenseFront } = await applyWithLicence(t.app, user.cookie, {
    firstName: "Ada",
    lastName: "Lovelace",
    dateOfBirth: "1985-12-10",
    street: "12 Analytical Row",
    city: "Albany",
    state: "NY",
    zipCode: "12207",
    ssn,
  });
  if (res.statusCode !== 200) throw new Error(`apply failed: ${res.statusCode} ${res.body}`);
  return { user, kycId: res.json().kyc.id as string, documentPath: drivingLicenseFront };
}

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
beforeAll(async () => {
  for (const role of ["support", "compliance", "finance", "owner"] as const) {
    staff[role] = await createVerifiedUser(t.database, { staffRoles: [role] });
  }
  ({ user: customer, kycId, documentPath } = await applicant(SSN));
  stranger = await createVerifiedUser(t.database);
});

const get = (who: SignedInUser | null, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers: { ...headers, ...(who ? { cookie: who.cookie } : {}) } });
const reveal = (who: SignedInUser, payload: object, id = kycId) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/kyc/${id}/ssn/reveal`,
    headers: { cookie: who.cookie },
    payload,
  });
const rowsFor = (action: string, subject: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subjectUserId, subject)));

describe("who may call the audit routes", () => {
  const routes = ["/api/admin/audit", "/api/admin/audit.csv"];

  it("lets compliance and owners search and export; support and finance get 403 roleRequired", async () => {
    for (const url of routes) {
      expect((await get(null, url)).statusCode, url).toBe(401);
      expect((await get(customer, url)).statusCode, url).toBe(403);
      for (const role of ["support", "finance"] as const) {
        const res = await get(staff[role], url);
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({
          message: STAFF_MESSAGES.roleRequired,
          roleRequired: true,
          allowedRoles: ["compliance", "owner"],
        });
      }
      for (const role of ["compliance", "owner"] as const) {
        expect((await get(staff[role], url)).statusCode, `${role} ${url}`).toBe(200);
      }
    }
  });

  it("lets only compliance and owners reveal an SSN", async () => {
    const payload = { reason: "Checking the number against the IRS letter" };
    for (const role of ["support", "finance"] as const) {
      const res = await reveal(staff[role], payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().roleRequired).toBe(true);
    }
    expect((await reveal(customer, payload)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: "POST", url: `/api/admin/kyc/${kycId}/ssn/reveal`, payload })).statusCode,
    ).toBe(401);
    expect(await rowsFor(READ_ACTIONS.ssnRevealed, customer.user.id)).toHaveLength(0);
  });
});

describe("revealing an SSN", () => {
  it("refuses a missing, blank, too short or too long reason with a field error and writes nothing", async () => {
    for (const payload of [{}, { reason: "" }, { reason: "  ab  " }, { reason: "x".repeat(501) }]) {
      const res = await reveal(staff.compliance, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({
        message: AUDIT_MESSAGES.reasonRequired,
        field: "reason",
        reasonRequired: true,
      });
      expect(res.body).not.toContain(SSN);
    }
    expect((await reveal(staff.compliance, { reason: 42 })).statusCode).toBe(400);
    expect(await rowsFor(READ_ACTIONS.ssnRevealed, customer.user.id)).toHaveLength(0);
  });

  it("answers the full SSN and audits who, in which role, and why", async () => {
    const res = await reveal(staff.compliance, { reason: "  Customer disputes the last four digits  " });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ssn: SSN });
    const [row] = await rowsFor(READ_ACTIONS.ssnRevealed, customer.user.id);
    expect(row).toMatchObject({
      actorId: staff.compliance.user.id,
      actorRole: "compliance",
      targetType: "kyc_application",
      targetId: kycId,
      reason: "Customer disputes the last four digits",
    });
    // An owner is authorised as owner.
    expect((await reveal(staff.owner, { reason: "Second look by the owner" })).statusCode).toBe(200);
    const rows = await rowsFor(READ_ACTIONS.ssnRevealed, customer.user.id);
    expect(rows.map((r) => r.actorRole).sort()).toEqual(["compliance", "owner"]);
  });

  it("keeps the SSN masked everywhere else", async () => {
    const list = await get(staff.compliance, "/api/admin/kyc-applications?status=all");
    expect(list.body).toContain(`***-**-${SSN.slice(-4)}`);
    expect(list.body).not.toContain(SSN);
    expect((await get(customer, "/api/kyc/status")).body).not.toContain(SSN);
  });

  it("answers 404 for an unknown application and 400 for a malformed id", async () => {
    const reason = { reason: "Looking for the file" };
    expect((await reveal(staff.compliance, reason, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(
      404,
    );
    expect((await reveal(staff.compliance, reason, "not-a-uuid")).statusCode).toBe(400);
  });
});

describe("opening documents and chats", () => {
  it("audits a document opened by compliance, not one opened by its owner", async () => {
    expect((await get(customer, documentPath)).statusCode).toBe(200);
    expect(await rowsFor(READ_ACTIONS.documentOpened, customer.user.id)).toHaveLength(0);
    expect((await get(staff.compliance, documentPath)).statusCode).toBe(200);
    const rows = await rowsFor(READ_ACTIONS.documentOpened, customer.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: staff.compliance.user.id,
      actorRole: "compliance",
      targetType: "user",
      targetId: customer.user.id,
    });
    // Refused staff read nothing, so nothing is audited.
    expect((await get(staff.support, documentPath)).statusCode).toBe(404);
    expect(await rowsFor(READ_ACTIONS.documentOpened, customer.user.id)).toHaveLength(1);
  });

  it("audits opening a chat once per staff member and conversation, not once per poll", async () => {
    const url = `/api/admin/chats/${customer.user.id}`;
    const first = await get(staff.support, url);
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    for (let i = 0; i < 4; i++) {
      expect((await get(staff.support, url, { "if-none-match": etag })).statusCode).toBe(304);
    }
    expect((await get(staff.support, url)).statusCode).toBe(200);
    expect((await get(staff.support, `${url}/customer`)).statusCode).toBe(200);
    const rows = await rowsFor(READ_ACTIONS.chatOpened, customer.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: staff.support.user.id, actorRole: "support" });
    // Another staff member's visit is their own row; an owner is authorised as owner.
    expect((await get(staff.owner, url)).statusCode).toBe(200);
    const after = await rowsFor(READ_ACTIONS.chatOpened, customer.user.id);
    expect(after.map((r) => r.actorRole).sort()).toEqual(["owner", "support"]);
  });

  it("writes one row when polls race", async () => {
    const other = await createVerifiedUser(t.database);
    const url = `/api/admin/chats/${other.user.id}`;
    const replies = await Promise.all(Array.from({ length: 6 }, () => get(staff.compliance, url)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(6).fill(403));
    const polls = await Promise.all(Array.from({ length: 6 }, () => get(staff.support, url)));
    expect(polls.every((r) => r.statusCode === 200)).toBe(true);
    expect(await rowsFor(READ_ACTIONS.chatOpened, other.user.id)).toHaveLength(1);
  });

  it("audits nothing for a customer that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000001";
    expect((await get(staff.support, `/api/admin/chats/${missing}`)).statusCode).toBe(404);
    expect(await rowsFor(READ_ACTIONS.chatOpened, missing)).toHaveLength(0);
  });
});

describe("searching the audit log", () => {
  const search = (query: string, who = staff.compliance) => get(who, `/api/admin/audit?${query}`);

  it("finds rows by actor and customer, each by e-mail or id, with actor e-mail and roles", async () => {
    for (const actor of [staff.compliance.email.toUpperCase(), staff.compliance.user.id]) {
      const res = await search(`actor=${encodeURIComponent(actor)}&action=${READ_ACTIONS.ssnRevealed}`);
      expect(res.statusCode, res.body).toBe(200);
      const { items } = res.json();
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        actor: { id: staff.compliance.user.id, email: staff.compliance.email, roles: ["compliance"] },
        actorRole: "compliance",
        action: READ_ACTIONS.ssnRevealed,
        targetType: "kyc_application",
        targetId: kycId,
        customer: { id: customer.user.id, email: customer.email },
        reason: "Customer disputes the last four digits",
      });
    }
    for (const who of [customer.email, customer.user.id]) {
      const { items } = (await search(`customer=${encodeURIComponent(who)}&limit=200`)).json();
      expect(items.length).toBeGreaterThanOrEqual(5);
      expect(items.every((i: { customer: { id: string } }) => i.customer.id === customer.user.id)).toBe(true);
      // The customer's own KYC submission is found too, through its application.
      expect(items.map((i: { action: string }) => i.action)).toContain("kyc.submit");
    }
    expect((await search("actor=nobody%40example.com")).json()).toEqual({ items: [], nextCursor: null });
  });

  it("matches an action exactly, or by prefix with a trailing *", async () => {
    const exact = (await search("action=customer.chat&limit=200")).json();
    expect(exact.items).toEqual([]);
    const prefix = (await search("action=customer.*&limit=200")).json();
    const actions = new Set(prefix.items.map((i: { action: string }) => i.action));
    expect([...actions].sort()).toEqual([
      READ_ACTIONS.chatOpened,
      READ_ACTIONS.documentOpened,
      READ_ACTIONS.ssnRevealed,
    ]);
    // LIKE's own wildcard in a prefix is matched literally.
    expect((await search("action=customer_*")).json().items).toEqual([]);
  });

  it("filters by New York days, both ends inclusive", async () => {
    const today = newYorkDay(new Date());
    const inRange = (await search(`from=${today}&to=${today}&action=customer.*&limit=200`)).json();
    expect(inRange.items.length).toBeGreaterThan(0);
    const before = (await search(`from=2020-01-01&to=2020-12-31&limit=200`)).json();
    expect(before.items).toEqual([]);
    const tomorrow = newYorkDay(new Date(Date.now() + 36 * 3600_000));
    expect((await search(`from=${tomorrow}`)).json().items).toEqual([]);
  });

  it("pages newest first with limit and cursor, every row once", async () => {
    const all = (await search("limit=200")).json().items.map((i: { id: string }) => i.id);
    expect(all.length).toBeGreaterThan(5);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await search(`limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(all.map(Number)).toEqual([...all.map(Number)].sort((a, b) => b - a));
  });

  it("refuses bad filters with 400 and a message", async () => {
    const cases: [string, string][] = [
      ["from=2026-03-02&to=2026-03-01", AUDIT_MESSAGES.fromAfterTo],
      ["from=2026-02-30", AUDIT_MESSAGES.invalidDate],
      ["to=yesterday", AUDIT_MESSAGES.invalidDate],
      ["from=2026-1-5", AUDIT_MESSAGES.invalidDate],
      ["action=KYC.approve", AUDIT_MESSAGES.invalidAction],
      ["action=kyc*.approve", AUDIT_MESSAGES.invalidAction],
      ["action=kyc%25", AUDIT_MESSAGES.invalidAction],
      [`actor=${"a".repeat(400)}`, AUDIT_MESSAGES.invalidPerson],
    ];
    for (const [query, message] of cases) {
      for (const url of ["/api/admin/audit", "/api/admin/audit.csv"]) {
        const res = await get(staff.owner, `${url}?${query}`);
        expect(res.statusCode, `${url}?${query}`).toBe(400);
        expect(res.json().message, query).toContain(message);
      }
    }
    for (const [query, message] of [
      ["cursor=garbage", PAGE_MESSAGES.invalidCursor],
      ["limit=0", PAGE_MESSAGES.invalidLimit],
      ["limit=201", PAGE_MESSAGES.invalidLimit],
    ] as const) {
      const res = await get(staff.owner, `/api/admin/audit?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(message);
    }
  });
});

describe("exporting the audit log as CSV", () => {
  it("streams the same search as CSV, with spreadsheet formulas neutralised", async () => {
    const other = (await applicant(`${300 + (process.pid % 500)}-52-8417`)).kycId;
    const formula = '=HYPERLINK("http://evil.example","x"), checked';
    expect((await reveal(staff.owner, { reason: formula }, other)).statusCode).toBe(200);
    expect((await reveal(staff.owner, { reason: "+1 call back, @home" }, other)).statusCode).toBe(200);

    const res = await get(
      staff.compliance,
      `/api/admin/audit.csv?actor=${staff.owner.user.id}&action=customer.ssn_revealed`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toContain("pillar-audit.csv");
    const lines = res.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,time,actor_email,actor_id,actor_roles,authorised_as,action,target_type,target_id,customer_email,customer_id,reason,before,after",
    );
    // Three owner reveals: two for the second applicant (newest first), one from earlier.
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`,"'+1 call back, @home",`);
    expect(lines[2]).toContain(`,"'=HYPERLINK(""http://evil.example"",""x""), checked",`);
    expect(lines[1]).toContain(
      `,${staff.owner.email},${staff.owner.user.id},owner,owner,customer.ssn_revealed,`,
    );
    expect(lines[3]).toContain("Second look by the owner");
    // No cell starts with a formula character.
    expect(res.body).not.toMatch(/(^|,)"?[=+@]/m);
  });

  it("answers the header alone when nothing matches", async () => {
    const res = await get(staff.owner, "/api/admin/audit.csv?from=2020-01-01&to=2020-01-02");
    expect(res.statusCode).toBe(200);
    expect(res.body.split("\r\n").filter(Boolean)).toHaveLength(1);
  });
});

describe("the customer's access log", () => {
  it("lists reveals, document and chat opens and staff actions with role and reason, never who", async () => {
    // A staff action on the account shows too.
    const approve = await t.app.inject({
      method: "PUT",
      url: `/api/admin/kyc/${kycId}/approve`,
      headers: { cookie: staff.owner.cookie },
      payload: {},
    });
    expect(approve.statusCode, approve.body).toBe(200);

    const res = await get(customer, "/api/account/data-access?limit=200");
    expect(res.statusCode).toBe(200);
    const { items, nextCursor } = res.json();
    expect(nextCursor).toBeNull();
    const summary = items.map((i: { action: string; role: string; reason: string | null }) => [
      i.action,
      i.role,
      i.reason,
    ]);
    expect(summary).toEqual([
      ["kyc.approve", "owner", null],
      [READ_ACTIONS.chatOpened, "owner", null],
      [READ_ACTIONS.chatOpened, "support", null],
      [READ_ACTIONS.documentOpened, "compliance", null],
      [READ_ACTIONS.ssnRevealed, "owner", "Second look by the owner"],
      [READ_ACTIONS.ssnRevealed, "compliance", "Customer disputes the last four digits"],
    ]);
    expect(items[4].description).toMatch(/Social Security number/);
    // Never the staff member: no id, e-mail or name of any of them anywhere in the answer.
    for (const member of Object.values(staff)) {
      for (const secret of [member.user.id, member.email, member.user.firstName, member.user.lastName]) {
        expect(res.body).not.toContain(secret);
      }
    }
    // The customer's own submission is not someone else's access.
    expect(res.body).not.toContain("kyc.submit");
  });

  it("pages with limit and cursor", async () => {
    const first = (await get(customer, "/api/account/data-access?limit=4")).json();
    expect(first.items).toHaveLength(4);
    const second = (
      await get(customer, `/api/account/data-access?limit=4&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect((await get(customer, "/api/account/data-access?cursor=nope")).statusCode).toBe(400);
  });

  it("shows another customer none of it, and needs a session", async () => {
    const res = await get(stranger, "/api/account/data-access");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [], nextCursor: null });
    expect((await get(null, "/api/account/data-access")).statusCode).toBe(401);
  });
});
