import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { users } from "@/server/db/schema";
import { unfreezeUser } from "@/server/features/admin/unfreeze-user";
import { addSessionCacheBroadcaster, type CacheTarget } from "@/server/lib/session";
import { updateUser } from "@/server/lib/write-user";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser } from "@/tests/support/users";

const t = setUpTestApp();
const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });

/** Every forget of the session cache, as the other instances would hear it. */
let forgotten: CacheTarget[] = [];
let stopListening = () => {};
function listen() {
  forgotten = [];
  stopListening = addSessionCacheBroadcaster((target) => forgotten.push(target));
}
afterEach(() => stopListening());

describe("updateUser and the session cache", () => {
  it("forgets the user's cached sessions when the transaction commits, not before", async () => {
    const { user } = await createVerifiedUser(t.database);
    listen();
    await t.database.db.transaction(async (tx) => {
      expect(await updateUser(tx, user.id, { firstName: "Renamed" })).toBe(true);
      // Still uncommitted: a request forgetting now could re-read and cache the old row.
      expect(forgotten).toEqual([]);
    });
    expect(forgotten).toEqual([{ userId: user.id }]);
  });

  it("waits for the outer commit when written in a nested transaction", async () => {
    const { user } = await createVerifiedUser(t.database);
    listen();
    await t.database.db.transaction(async (tx) => {
      await tx.transaction((nested) => updateUser(nested, user.id, { firstName: "Renamed" }));
      expect(forgotten).toEqual([]);
    });
    expect(forgotten).toEqual([{ userId: user.id }]);
  });

  it("forgets nothing when the transaction rolls back", async () => {
    const { user } = await createVerifiedUser(t.database);
    listen();
    await expect(
      t.database.db.transaction(async (tx) => {
        await updateUser(tx, user.id, { firstName: "Renamed" });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(forgotten).toEqual([]);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.firstName).not.toBe("Renamed");
  });

  it("forgets at once outside a transaction, and only when a row changed", async () => {
    const { user } = await createVerifiedUser(t.database);
    listen();
    expect(await updateUser(t.database.db, user.id, { firstName: "Renamed" })).toBe(true);
    expect(forgotten).toEqual([{ userId: user.id }]);
    expect(
      await updateUser(
        t.database.db,
        user.id,
        { firstName: "Again" },
        { where: eq(users.firstName, "Other") },
      ),
    ).toBe(false);
    expect(forgotten).toHaveLength(1);
  });

  it("shows a lifted freeze on the next request of a cached session", async () => {
    const admin = await createAdminUser(t.database);
    const { cookie, user } = await createVerifiedUser(t.database);
    await t.database.query("update users set frozen_at = now() where id = $1", [user.id]);
    expect((await me(cookie)).json().isFrozen).toBe(true);
    await unfreezeUser(t.database.db, admin.user.id, user.id);
    expect((await me(cookie)).json().isFrozen).toBe(false);
  });
});
