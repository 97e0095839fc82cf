import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAFF_MESSAGES } from "@/contract/staff";
import { allowedRolesFor, CATALOGUE, expectedStatus } from "@/tests/abuse/catalogue";
import {
  createWorld,
  expectLedgerOk,
  expectReasonForFlags,
  ROLES,
  type Role,
  STAFF_COLUMNS,
  type StaffColumn,
  signedInAs,
  snapshot,
  type World,
} from "@/tests/abuse/world";

const isStaffColumn = (role: Role): role is StaffColumn => (STAFF_COLUMNS as readonly Role[]).includes(role);

// Every registered route × {signed out, customer A, customer B with A's ids, support, compliance, finance,
// admin (an owner)}: the exact status, and no write at all whenever the answer is a refusal.
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.t.close();
});

describe("route inventory", () => {
  it("knows every route the app registers, and nothing it does not", () => {
    const registered = w.routes.filter((r) => !r.startsWith("HEAD "));
    expect(registered.length).toBeGreaterThan(50);
    expect(new Set(registered).size).toBe(registered.length);
    // A failure here means a route was added or removed: describe it in tests/abuse/catalogue.ts.
    expect([...registered].sort()).toEqual(Object.keys(CATALOGUE).sort());
  });

  it("gives every route a response schema for its success answers", () => {
    // A failure here names routes without `schema.response`: add the contract's schema (or, for a stream, page
    // or redirect, its content type from contract/media.ts) so the body is checked and documented.
    const withoutSchema = w.routes.filter(
      (r) => !r.startsWith("HEAD ") && !w.responseStatuses[r]?.some((status) => /^[23]/.test(status)),
    );
    expect(withoutSchema).toEqual([]);
  });

  it("has only HEAD routes that mirror a GET route", () => {
    for (const head of w.routes.filter((r) => r.startsWith("HEAD "))) {
      // Fastify adds "HEAD /prefix/" next to a prefixed "/" route without reporting the GET twice.
      expect(w.routes, head).toContain(head.replace(/^HEAD /, "GET ").replace(/(.)\/$/, "$1"));
    }
  });
});

describe("authorization matrix", () => {
  for (const [key, route] of Object.entries(CATALOGUE)) {
    const method = key.split(" ")[0]!;
    for (const role of ROLES) {
      const expected = expectedStatus(key, route, role);
      it(`${key} as ${role} → ${expected}`, async () => {
        const { headers, ...request } = await route.build(w, role);
        const auth = await signedInAs(w, role);
        const before = expected >= 400 ? await snapshot(w, route.refusalWrites) : null;
        const res = await w.t.app.inject({
          method: method as "GET",
          ...request,
          headers: { ...headers, ...auth },
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(expected);
        if ((role === "otherUser" || role === "signedOut") && route.access !== "dev") {
          // Whatever B (or a stranger) is told, nothing in it belongs to A (the dev mailbox is 404 in production).
          for (const secret of [w.a.user.id, w.a.email, ...Object.values(w.ids)])
            expect(res.body, `${key} leaks ${secret}`).not.toContain(secret);
        }
        if (expected >= 400) {
          expect(res.headers["content-type"]).toMatch(/^application\/json/);
          expect(typeof res.json().message).toBe("string");
          expectReasonForFlags(res.statusCode, res.json(), `${key} as ${role}`, key);
          const allowed = allowedRolesFor(key);
          if (allowed && isStaffColumn(role) && !allowed.includes(role)) {
            // A staff role the table does not name: refused for its role, naming the roles that may.
            expect(res.json()).toMatchObject({ roleRequired: true, message: STAFF_MESSAGES.roleRequired });
            expect(res.json().reason).toBe("role_required");
            expect([...res.json().allowedRoles].sort()).toEqual([...allowed].sort());
          }
          // Refused means refused: not one row anywhere changed.
          expect(await snapshot(w, route.refusalWrites)).toEqual(before);
        }
        if (method === "GET") {
          const head = await w.t.app.inject({
            method: "HEAD",
            url: request.url,
            headers: { ...headers, ...(await signedInAs(w, role)) },
          });
          expect(head.statusCode).toBe(expected);
        }
      });
    }
  }

  it("refuses a role the table does not name before validation: garbage gets the same 403 roleRequired", async () => {
    const wrong: string[] = [];
    for (const [key, route] of Object.entries(CATALOGUE)) {
      const allowed = allowedRolesFor(key);
      if (route.access !== "admin" || !allowed) continue;
      const [method, pattern] = key.split(" ") as [string, string];
      const hasBody = method !== "GET" && method !== "DELETE";
      for (const role of STAFF_COLUMNS.filter((r) => !allowed.includes(r))) {
        const res = await w.t.app.inject({
          method: method as "POST",
          url: pattern.replace(/:[A-Za-z]+/g, "not-an-id"),
          headers: {
            ...(await signedInAs(w, role)),
            ...(hasBody ? { "content-type": "application/json" } : {}),
          },
          ...(hasBody ? { payload: '{"garbage":[1,2,3]}' } : {}),
        });
        if (res.statusCode !== 403 || res.json().roleRequired !== true)
          wrong.push(`${key} as ${role} → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("leaves the ledger balanced", async () => {
    await expectLedgerOk(w);
  });
});
