import { beforeAll, describe, expect, it } from "vitest";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
beforeAll(async () => {
  await createAdminUser(t.database);
  for (let i = 0; i < 3; i++) await createVerifiedUser(t.database);
});

const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });

/** Every row of a paged list, following nextCursor (a small limit so the walk takes several pages). */
async function countAll(url: string): Promise<number> {
  let total = 0;
  let cursor: string | null = null;
  do {
    const res = await get(`${url}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.statusCode).toBe(200);
    const page = res.json() as { items: unknown[]; nextCursor: string | null };
    total += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return total;
}

describe("admin stats and the user list agree", () => {
  it("counts Total Users as the customer accounts the list's Customers filter shows, staff apart", async () => {
    const stats = (await get("/api/admin/stats")).json();
    const customers = await countAll("/api/admin/users?role=customer");
    const staff = await countAll("/api/admin/users?role=staff");
    const everyone = await countAll("/api/admin/users?role=all");
    expect(stats.totalUsers).toBe(customers);
    expect(customers).toBe(3);
    expect(staff).toBe(2);
    expect(everyone).toBe(customers + staff);
    // No role is every account, as the list answered before the filter existed.
    expect(await countAll("/api/admin/users?")).toBe(everyone);
  });

  it("keeps agreeing after a sign-up, and a customer never appears under staff", async () => {
    const newcomer = await createVerifiedUser(t.database);
    const stats = (await get("/api/admin/stats")).json();
    expect(stats.totalUsers).toBe(await countAll("/api/admin/users?role=customer"));
    const staff = (await get("/api/admin/users?role=staff&limit=200")).json().items as { id: string }[];
    expect(staff.some((u) => u.id === newcomer.user.id)).toBe(false);
    const found = (
      await get(`/api/admin/users?role=customer&q=${encodeURIComponent(newcomer.email)}`)
    ).json();
    expect(found.items.map((u: { id: string }) => u.id)).toEqual([newcomer.user.id]);
  });

  it("refuses an unknown role with 400 JSON", async () => {
    for (const role of ["admin", "", "customer,staff", "1"]) {
      const res = await get(`/api/admin/users?role=${encodeURIComponent(role)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe("Unknown role filter");
    }
  });
});
