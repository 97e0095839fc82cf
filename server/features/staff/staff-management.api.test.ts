import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STAFF_MANAGEMENT_MESSAGES, STAFF_MESSAGES } from "@/contract/staff";
import { createApprovedCustomer } from "@/tests/support/money";
import { enrolTotp, postJson, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, signupBody } from "@/tests/support/users";

// Staff management with ADMIN_REQUIRE_2FA on, as in production: the owner has an authenticator and steps up.
const CONFIGURED_OWNER = "chief@example.com";
let owner: SignedInUser & { secret: string };

const t = setUpTestApp({
  RATE_LIMIT_SCALE: "100",
  ADMIN_REQUIRE_2FA: "1",
  ADMIN_EMAILS: CONFIGURED_OWNER,
});
beforeAll(async () => {
  const created = await createVerifiedUser(t.database, { staffRoles: ["owner"] });
  const { secret } = await enrolTotp(t.app, created.cookie);
  owner = { ...created, secret };
});
beforeEach(async () => {
  await stepUpWithTotp(t.app, t.database, { id: owner.user.id, cookie: owner.cookie, secret: owner.secret });
});

const get = (cookie: string, url: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
const post = (cookie: string, url: string, payload: object) => postJson(t.app, url, cookie, payload);
const auditRows = (targetId: string) =>
  t.database.query<{ action: string; actor_id: string | null; before: unknown; after: unknown }>(
    "select action, actor_id, before, after from audit_log where target_id = $1 and action like 'staff.%' order by created_at",
    [targetId],
  );
const rolesOf = async (userId: string) =>
  (
    await t.database.query<{ staff_roles: string[] }>("select staff_roles from users where id = $1", [userId])
  )[0]!.staff_roles;

describe("staff management (owner only)", () => {
  it("lists staff with their roles and second-factor status, for owners only", async () => {
    const finance = await createVerifiedUser(t.database, { staffRoles: ["finance", "support"] });
    await createVerifiedUser(t.database);
    const res = await get(owner.cookie, "/api/admin/staff?limit=200");
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { id: string; staffRoles: string[]; secondFactorEnabled: boolean }[];
    expect(items.find((m) => m.id === finance.user.id)).toMatchObject({
      staffRoles: ["support", "finance"],
      secondFactorEnabled: false,
      ownerByConfig: false,
    });
    expect(items.find((m) => m.id === owner.user.id)).toMatchObject({
      staffRoles: ["owner"],
      secondFactorEnabled: true,
    });
    // Customers are not staff.
    expect(items.every((m) => m.staffRoles.length > 0)).toBe(true);

    await enrolTotp(t.app, finance.cookie);
    const refused = await get(finance.cookie, "/api/admin/staff");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      roleRequired: true,
      allowedRoles: ["owner"],
      message: STAFF_MESSAGES.roleRequired,
    });
  });

  it("adds staff by e-mail; the new role works on their next request, second factor still required", async () => {
    const colleague = await createVerifiedUser(t.database);
    expect((await get(colleague.cookie, "/api/admin/users")).statusCode).toBe(403);
    const res = await post(owner.cookie, "/api/admin/staff", {
      email: colleague.email.toUpperCase(),
      roles: ["support"],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: colleague.user.id,
      staffRoles: ["support"],
      secondFactorEnabled: false,
    });
    expect(await auditRows(colleague.user.id)).toEqual([
      {
        action: "staff.grant_roles",
        actor_id: owner.user.id,
        before: { staffRoles: [] },
        after: { staffRoles: ["support"] },
      },
    ]);
    // The same session, next request: staff now, but not in the back office before a second factor.
    expect((await get(colleague.cookie, "/api/auth/user")).json()).toMatchObject({
      isAdmin: true,
      staffRoles: ["support"],
    });
    const noFactor = await get(colleague.cookie, "/api/admin/users");
    expect(noFactor.statusCode).toBe(403);
    expect(noFactor.json().secondFactorRequired).toBe(true);
    await enrolTotp(t.app, colleague.cookie);
    expect((await get(colleague.cookie, "/api/admin/users")).statusCode).toBe(200);
    expect((await get(colleague.cookie, "/api/admin/chats")).statusCode).toBe(200);
    expect((await get(colleague.cookie, "/api/admin/kyc-applications")).statusCode).toBe(403);

    // Granting again changes nothing and logs nothing.
    const again = await post(owner.cookie, `/api/admin/staff/${colleague.user.id}/grant`, {
      roles: ["support"],
    });
    expect(again.statusCode).toBe(200);
    expect(await auditRows(colleague.user.id)).toHaveLength(1);
  });

  it("revokes a role, effective on the holder's next request, and audits before and after", async () => {
    const staff = await createVerifiedUser(t.database, { staffRoles: ["support", "compliance"] });
    await enrolTotp(t.app, staff.cookie);
    expect((await get(staff.cookie, "/api/admin/kyc-applications")).statusCode).toBe(200);
    const res = await post(owner.cookie, `/api/admin/staff/${staff.user.id}/revoke`, {
      roles: ["compliance"],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().staffRoles).toEqual(["support"]);
    expect((await get(staff.cookie, "/api/admin/kyc-applications")).statusCode).toBe(403);
    expect((await get(staff.cookie, "/api/admin/chats")).statusCode).toBe(200);

    const last = await post(owner.cookie, `/api/admin/staff/${staff.user.id}/revoke`, { roles: ["support"] });
    expect(last.json().staffRoles).toEqual([]);
    // A customer again, still signed in: the back office is closed at once.
    const closed = await get(staff.cookie, "/api/admin/users");
    expect(closed.statusCode).toBe(403);
    expect((await get(staff.cookie, "/api/auth/user")).json()).toMatchObject({
      isAdmin: false,
      staffRoles: [],
    });
    expect(await auditRows(staff.user.id)).toEqual([
      {
        action: "staff.revoke_roles",
        actor_id: owner.user.id,
        before: { staffRoles: ["support", "compliance"] },
        after: { staffRoles: ["support"] },
      },
      {
        action: "staff.revoke_roles",
        actor_id: owner.user.id,
        before: { staffRoles: ["support"] },
        after: { staffRoles: [] },
      },
    ]);
    // Revoking what is not held changes nothing.
    const none = await post(owner.cookie, `/api/admin/staff/${staff.user.id}/revoke`, { roles: ["finance"] });
    expect(none.statusCode).toBe(200);
    expect(await auditRows(staff.user.id)).toHaveLength(2);
  });

  it("refuses bad input with 4xx JSON and writes nothing", async () => {
    const someone = await createVerifiedUser(t.database);
    const cases: [string, object, number][] = [
      ["/api/admin/staff", { email: someone.email, roles: ["janitor"] }, 400],
      ["/api/admin/staff", { email: someone.email, roles: [] }, 400],
      ["/api/admin/staff", { email: "not-an-email", roles: ["support"] }, 400],
      ["/api/admin/staff", { email: someone.email }, 400],
      ["/api/admin/staff", { email: "nobody@example.com", roles: ["support"] }, 404],
      [`/api/admin/staff/${someone.user.id}/grant`, { roles: "owner" }, 400],
      ["/api/admin/staff/not-a-uuid/grant", { roles: ["owner"] }, 400],
      [`/api/admin/staff/${crypto.randomUUID()}/grant`, { roles: ["owner"] }, 404],
      [`/api/admin/staff/${crypto.randomUUID()}/revoke`, { roles: ["owner"] }, 404],
    ];
    for (const [url, body, status] of cases) {
      const res = await post(owner.cookie, url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(typeof res.json().message).toBe("string");
    }
    expect(
      (
        await post(owner.cookie, "/api/admin/staff", { email: "nobody@example.com", roles: ["support"] })
      ).json().message,
    ).toBe(STAFF_MANAGEMENT_MESSAGES.noAccount);
    expect(await rolesOf(someone.user.id)).toEqual([]);
    expect(await auditRows(someone.user.id)).toEqual([]);
  });

  it("refuses an unverified account and one that banks with Pillar", async () => {
    const body = signupBody();
    expect(
      (await t.app.inject({ method: "POST", url: "/api/auth/register", payload: body })).statusCode,
    ).toBe(200);
    const unverified = await post(owner.cookie, "/api/admin/staff", {
      email: body.email,
      roles: ["support"],
    });
    expect(unverified.statusCode).toBe(409);

    const customer = await createApprovedCustomer(t.database);
    const refused = await post(owner.cookie, "/api/admin/staff", {
      email: customer.email,
      roles: ["finance"],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      customerAccount: true,
      message: STAFF_MANAGEMENT_MESSAGES.customerAccount,
    });
    expect(await rolesOf(customer.user.id)).toEqual([]);
    expect(await auditRows(customer.user.id)).toEqual([]);
  });

  it("needs the owner's fresh second-factor proof to grant or revoke", async () => {
    const someone = await createVerifiedUser(t.database);
    const stale = await createVerifiedUser(t.database, { staffRoles: ["owner"] });
    await enrolTotp(t.app, stale.cookie);
    // No proof in this session's last five minutes (enrolling may count as one).
    await t.database.query("delete from auth_challenges where user_id = $1 and purpose = 'step_up'", [
      stale.user.id,
    ]);
    const res = await post(stale.cookie, "/api/admin/staff", { email: someone.email, roles: ["support"] });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().stepUpRequired).toBe(true);
    expect(await rolesOf(someone.user.id)).toEqual([]);
  });
});

describe("owners", () => {
  /** Leaves exactly the given owners (plus the ADMIN_EMAILS one, if any exists). */
  async function onlyOwners(...keep: string[]) {
    await t.database.query(
      "update users set staff_roles = array_remove(staff_roles, 'owner') where 'owner' = any(staff_roles) and not (id = any($1::uuid[]))",
      [keep],
    );
  }

  it("never removes the last owner, themselves included", async () => {
    await onlyOwners(owner.user.id);
    const res = await post(owner.cookie, `/api/admin/staff/${owner.user.id}/revoke`, { roles: ["owner"] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ lastOwner: true, message: STAFF_MANAGEMENT_MESSAGES.lastOwner });
    expect(await rolesOf(owner.user.id)).toEqual(["owner"]);
  });

  it("lets an owner step down while another owner remains", async () => {
    const second = await createVerifiedUser(t.database, { staffRoles: ["owner"] });
    await onlyOwners(owner.user.id, second.user.id);
    const res = await post(owner.cookie, `/api/admin/staff/${second.user.id}/revoke`, { roles: ["owner"] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rolesOf(second.user.id)).toEqual([]);
  });

  it("keeps one owner when two owners demote each other at once", async () => {
    const second = await createVerifiedUser(t.database, { staffRoles: ["owner"] });
    const { secret } = await enrolTotp(t.app, second.cookie);
    await stepUpWithTotp(t.app, t.database, { id: second.user.id, cookie: second.cookie, secret });
    await onlyOwners(owner.user.id, second.user.id);
    const results = await Promise.all([
      post(owner.cookie, `/api/admin/staff/${second.user.id}/revoke`, { roles: ["owner"] }),
      post(second.cookie, `/api/admin/staff/${owner.user.id}/revoke`, { roles: ["owner"] }),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    // The loser is refused either as the last owner or, if the winner demoted them first, as no longer an owner.
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const [{ owners }] = await t.database.query<{ owners: number }>(
      "select count(*)::int as owners from users where 'owner' = any(staff_roles)",
    );
    expect(owners).toBe(1);
    // Put the suite's owner back if the other one won.
    await t.database.query("update users set staff_roles = '{owner}' where id = $1", [owner.user.id]);
  });

  it("keeps an ADMIN_EMAILS owner's role (the next sign-in would restore it)", async () => {
    const configured = await createVerifiedUser(t.database, {
      email: CONFIGURED_OWNER,
      staffRoles: ["owner"],
    });
    const listed = (await get(owner.cookie, "/api/admin/staff?limit=200")).json().items as {
      id: string;
      ownerByConfig: boolean;
    }[];
    expect(listed.find((m) => m.id === configured.user.id)?.ownerByConfig).toBe(true);
    const res = await post(owner.cookie, `/api/admin/staff/${configured.user.id}/revoke`, {
      roles: ["owner"],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ ownerByConfig: true });
    // Other roles of theirs can still be granted and taken away.
    expect(
      (await post(owner.cookie, `/api/admin/staff/${configured.user.id}/grant`, { roles: ["finance"] }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post(owner.cookie, `/api/admin/staff/${configured.user.id}/revoke`, { roles: ["finance"] }))
        .statusCode,
    ).toBe(200);
    expect(await rolesOf(configured.user.id)).toEqual(["owner"]);
  });
});
