import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_CACHE_MS } from "@/server/lib/session";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";
import { createVerifiedUser } from "@/tests/support/users";

let scratch: ScratchDatabase;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  [a, b] = await Promise.all([
    startServer({ DATABASE_URL: scratch.url }),
    startServer({ DATABASE_URL: scratch.url }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await scratch?.drop();
});

const me = (server: ServerProcess, cookie: string) =>
  fetch(`${server.url}/api/auth/user`, { headers: { cookie } }).then((r) => r.status);

describe("two instances on one PostgreSQL", () => {
  it("stops serving a session on every instance as soon as one instance ends it, not after the cache expiry", async () => {
    const customer = await createVerifiedUser(scratch.database);
    // Instance B caches the session lookup.
    expect(await me(b, customer.cookie)).toBe(200);
    expect(await me(b, customer.cookie)).toBe(200);

    const loggedOutAt = Date.now();
    const logout = await fetch(`${a.url}/api/logout`, {
      headers: { cookie: customer.cookie },
      redirect: "manual",
    });
    expect(logout.status).toBe(302);
    // Without the broadcast B would keep answering 200 from its cache for SESSION_CACHE_MS.
    await waitFor(
      "instance B to refuse the ended session",
      async () => (await me(b, customer.cookie)) === 401,
      {
        timeoutMs: SESSION_CACHE_MS / 2,
        intervalMs: 50,
      },
    );
    expect(Date.now() - loggedOutAt).toBeLessThan(SESSION_CACHE_MS);
  });

  it("drops every cached session of a user on the other instance when one instance signs them out everywhere", async () => {
    const customer = await createVerifiedUser(scratch.database);
    const other = await createVerifiedUser(scratch.database, { email: `other.${Date.now()}@example.com` });
    expect(await me(b, customer.cookie)).toBe(200);
    expect(await me(b, other.cookie)).toBe(200);
    // The admin path that removes every session of a user (delete) runs on A.
    await scratch.database.query("update users set staff_roles = '{owner}' where id = $1", [other.user.id]);
    const deleted = await fetch(`${a.url}/api/admin/users/${customer.user.id}`, {
      method: "DELETE",
      headers: { cookie: other.cookie, origin: a.url },
    });
    expect(deleted.status).toBe(200);
    await waitFor(
      "instance B to refuse the deleted customer's session",
      async () => (await me(b, customer.cookie)) === 401,
      {
        timeoutMs: SESSION_CACHE_MS / 2,
        intervalMs: 50,
      },
    );
  });
});
