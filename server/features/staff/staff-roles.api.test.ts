import { describe, expect, it } from "vitest";
import { STAFF_MESSAGES, type StaffRole } from "@/contract/staff";
import { ADMIN_ROUTE_ROLES } from "@/server/lib/route-roles";
import { PNG, uploadFile } from "@/tests/support/files";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpVerifiedUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const customer = setUpVerifiedUser(t);
const staff: Record<StaffRole, SignedInUser> = {
  support: setUpVerifiedUser(t, { staffRoles: ["support"] }),
  compliance: setUpVerifiedUser(t, { staffRoles: ["compliance"] }),
  finance: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  owner: setUpVerifiedUser(t, { staffRoles: ["owner"] }),
};

const get = (who: SignedInUser, url: string) =>
  t.app.inject({ method: "GET", url, headers: { cookie: who.cookie } });

describe("staff roles", () => {
  it("lists every registered admin route in the role table, and nothing that is not a route", () => {
    // The app would not have started with an admin route missing from the table (assertAdminRouteListed).
    for (const key of Object.keys(ADMIN_ROUTE_ROLES)) {
      const [method, url] = key.split(" ") as [string, string];
      expect(t.app.hasRoute({ method: method as "GET", url }), key).toBe(true);
    }
  });

  it("answers 403 roleRequired naming the roles that may, and lets those roles and owners in", async () => {
    const refused = await get(staff.support, "/api/admin/transactions");
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: STAFF_MESSAGES.roleRequired,
      roleRequired: true,
      allowedRoles: ["finance", "owner"],
    });
    expect((await get(staff.finance, "/api/admin/transactions")).statusCode).toBe(200);
    expect((await get(staff.owner, "/api/admin/transactions")).statusCode).toBe(200);
    expect((await get(staff.finance, "/api/admin/chats")).statusCode).toBe(403);
    expect((await get(staff.support, "/api/admin/chats")).statusCode).toBe(200);
    expect((await get(staff.compliance, "/api/admin/kyc-applications")).statusCode).toBe(200);
    expect((await get(staff.support, "/api/admin/kyc-applications")).statusCode).toBe(403);
    // The read-only customer view is open to every role.
    for (const role of ["support", "compliance", "finance", "owner"] as const) {
      expect((await get(staff[role], "/api/admin/users")).statusCode).toBe(200);
    }
  });

  it("reports each session's roles in /api/auth/user and keeps isAdmin meaning any role", async () => {
    const me = (await get(staff.support, "/api/auth/user")).json();
    expect(me).toMatchObject({ isAdmin: true, staffRoles: ["support"] });
    expect((await get(customer, "/api/auth/user")).json()).toMatchObject({ isAdmin: false, staffRoles: [] });
  });

  it("opens a customer's document for compliance and owners only; other staff get the stranger's 404", async () => {
    const { objectPath, putStatus } = await uploadFile(t.app, customer.cookie, PNG);
    expect(putStatus).toBe(200);
    expect((await get(customer, objectPath)).statusCode).toBe(200);
    expect((await get(staff.compliance, objectPath)).statusCode).toBe(200);
    expect((await get(staff.owner, objectPath)).statusCode).toBe(200);
    expect((await get(staff.support, objectPath)).statusCode).toBe(404);
    expect((await get(staff.finance, objectPath)).statusCode).toBe(404);
  });

  it("refuses a role the database does not know", async () => {
    await expect(
      t.database.query("update users set staff_roles = '{janitor}' where id = $1", [customer.user.id]),
    ).rejects.toThrow(/users_staff_roles_known/);
  });
});
