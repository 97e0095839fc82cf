import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@/contract/kyc";
import { kycApplications } from "@/server/db/schema";
import { CATALOGUE } from "@/tests/abuse/catalogue";
import { createWorld, rows, signedInAs, snapshot, type World } from "@/tests/abuse/world";
import { PNG, uploadFile } from "@/tests/support/files";
import { createVerifiedUser } from "@/tests/support/users";

// The attacks the matrix cannot reach with one request: customer B (or C, with an open application) using
// customer A's ids where the handler, not the auth check, has to refuse them.
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.t.close();
});

async function unchanged(run: () => Promise<void>) {
  const before = await snapshot(w);
  await run();
  expect(await snapshot(w)).toEqual(before);
}

describe("IDOR", () => {
  it("will not attach A's upload to C's open application, while C's own upload attaches", async () => {
    const c = await createVerifiedUser(w.t.database);
    await w.t.database.db.insert(kycApplications).values({
      userId: c.user.id,
      accountType: "business",
      companyName: "C Ltd",
      firstName: "C",
      lastName: "Customer",
      street: "1 Main St",
      city: "New York",
      state: "NY",
      zipCode: "10001",
      address: "1 Main St, New York, NY 10001",
      ssnCiphertext: "fixture",
      ssnIndex: randomBytes(16).toString("hex"),
      ssnLast4: "1234",
      status: "pending",
    });
    const attach = (documentUrl: string) =>
      w.t.app.inject({
        method: "POST",
        url: "/api/kyc/upload-document",
        headers: { cookie: c.cookie },
        payload: { documentType: "einDocument", documentUrl },
      });
    for (const stolen of [w.ids.objectPath, w.ids.spareObjectPath, `${w.ids.spareObjectPath}/`]) {
      await unchanged(async () => {
        const res = await attach(stolen);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toBe(KYC_MESSAGES.documentNotFound);
        expect(res.body).not.toContain(w.a.user.id);
      });
    }
    const own = await uploadFile(w.t.app, c.cookie, PNG);
    expect((await attach(own.objectPath)).statusCode).toBe(200);
  });

  it("will not let a new applicant submit A's documents as their own", async () => {
    const d = await createVerifiedUser(w.t.database);
    await unchanged(async () => {
      const res = await w.t.app.inject({
        method: "POST",
        url: "/api/kyc/create",
        headers: { cookie: d.cookie },
        payload: {
          firstName: "D",
          lastName: "Applicant",
          dateOfBirth: "1985-12-10",
          street: "2 Main St",
          city: "New York",
          state: "NY",
          zipCode: "10001",
          ssn: "987-65-4321",
          drivingLicenseFront: w.ids.objectPath,
          drivingLicenseBack: w.ids.spareObjectPath,
        },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(KYC_MESSAGES.documentNotFound);
    });
  });

  it("answers B the same 404 for A's file however the path is spelled, as for a file that does not exist", async () => {
    const cookie = w.b.cookie;
    const variants = [
      w.ids.objectPath,
      `${w.ids.objectPath}/`,
      w.ids.objectPath.replace(/[^/]+$/, (id) => id.toUpperCase()),
      w.ids.objectPath.replace("/objects/", "/objects//"),
      `${w.ids.objectPath}?download=1`,
      "/objects/uploads/00000000-0000-0000-0000-000000000000",
    ];
    const bodies = new Set<string>();
    for (const url of variants) {
      const res = await w.t.app.inject({ method: "GET", url, headers: { cookie } });
      expect(res.statusCode, url).toBe(404);
      bodies.add(JSON.stringify({ ...res.json(), requestId: undefined }).replace(/No route for [^"]+/, "x"));
    }
    expect([...bodies].every((b) => !b.includes(w.a.user.id))).toBe(true);
  });

  it("never shows B A's transactions or chat, whatever cursor or message id B sends", async () => {
    const page = await w.t.app.inject({
      method: "GET",
      url: "/api/transactions?limit=1",
      headers: { cookie: w.a.cookie },
    });
    const { items, nextCursor } = page.json() as { items: { id: string }[]; nextCursor: string | null };
    expect(items).toHaveLength(1);
    const [message] = await rows<{ id: string }>(
      w.t,
      "select id::text as id from chat_messages order by id limit 1",
    );
    const attempts = [
      `/api/transactions?cursor=${encodeURIComponent(nextCursor ?? "")}`,
      `/api/transactions?limit=100&cursor=${encodeURIComponent(nextCursor ?? "")}`,
      `/api/chat/messages?after=${Math.max(1, Number(message!.id) - 1)}`,
      "/api/chat/messages",
      "/api/transactions/export.csv",
      "/api/transactions/recent",
    ];
    for (const url of attempts) {
      const res = await w.t.app.inject({ method: "GET", url, headers: { cookie: w.b.cookie } });
      expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(500);
      expect(res.body, url).not.toContain(items[0]!.id);
      expect(res.body, url).not.toContain("Hello, support");
      expect(res.body, url).not.toContain(w.a.user.id);
    }
  });

  it("answers the admin 404, not 500, for every id route given an id that does not exist, and writes nothing", async () => {
    const idRoutes = Object.entries(CATALOGUE).filter(
      ([key, route]) => route.access === "admin" && /:(id|userId)/.test(key),
    );
    expect(idRoutes.length).toBeGreaterThan(10);
    const headers = await signedInAs(w, "admin");
    for (const [key, route] of idRoutes) {
      const [method, pattern] = key.split(" ") as [string, string];
      const base = await route.build(w, "admin");
      await unchanged(async () => {
        const res = await w.t.app.inject({
          method: method as "PUT",
          // Every parameter a fresh id (a case decision's route has two).
          url: pattern.replace(/:[A-Za-z]+/g, () => randomUUID()),
          headers,
          ...(base.payload !== undefined ? { payload: base.payload as object } : {}),
        });
        expect(res.statusCode, `${key} ${res.body}`).toBe(404);
      });
    }
  });
});

describe("refused before validation", () => {
  // A stranger or a customer learns nothing from validation messages: garbage gets the same 401/403 as a
  // well-formed request. (GET /objects/* answers 404 to strangers by design; public routes have no door.)
  const guarded = Object.entries(CATALOGUE).filter(
    ([key, route]) => (route.access === "user" || route.access === "admin") && key !== "GET /objects/*",
  );
  for (const role of ["signedOut", "user"] as const) {
    it(`answers ${role === "signedOut" ? "strangers 401" : "customers 403 on admin routes"} whatever the body and ids`, async () => {
      const headers = await signedInAs(w, role);
      const wrong: string[] = [];
      for (const [key, route] of guarded) {
        if (role === "user" && route.access !== "admin") continue;
        const [method, pattern] = key.split(" ") as [string, string];
        const res = await w.t.app.inject({
          method: method as "POST",
          url: pattern.replace(/:[A-Za-z]+/g, "not-an-id"),
          headers: {
            ...headers,
            ...(method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }),
          },
          ...(method === "GET" || method === "DELETE" ? {} : { payload: '{"garbage":[1,2,3]}' }),
        });
        const expected = role === "signedOut" ? 401 : 403;
        if (res.statusCode !== expected) wrong.push(`${key} → ${res.statusCode} ${res.json().message}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
