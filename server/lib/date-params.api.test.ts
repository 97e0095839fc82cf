import { describe, expect, it } from "vitest";
import { AUDIT_MESSAGES } from "@/contract/audit";
import { PAGE_MESSAGES } from "@/contract/pages";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser, setUpVerifiedUser } from "@/tests/support/users";

// Every date in a query (a filter, or the timestamp inside a keyset cursor) that does not exist
// answers 400 naming what is wrong, never a 500.
const t = setUpTestApp();
const owner = setUpAdminUser(t);
const customer = setUpVerifiedUser(t);

const get = (cookie: string, url: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
const cursorOf = (parts: string[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
const SOME_UUID = "0b6f4c57-2f8e-4a53-9a0e-0d2b1f8e5c11";

describe("dates in query parameters", () => {
  it.each([
    ["to=9999-99-99", "to"],
    ["from=2026-13-01", "from"],
    ["from=2026-02-30", "from"],
    ["to=0000-00-00", "to"],
  ])("answers the audit search and its CSV ?%s with 400 naming the field", async (query, field) => {
    for (const url of ["/api/admin/audit", "/api/admin/audit.csv"]) {
      const res = await get(owner.cookie, `${url}?${query}`);
      expect(res.statusCode, `${url}?${query} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        code: "VALIDATION",
        message: `${field}: ${AUDIT_MESSAGES.invalidDate}`,
      });
    }
  });

  it("still accepts real days, including the last one there is", async () => {
    const res = await get(owner.cookie, "/api/admin/audit?from=2026-02-28&to=9999-12-31");
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each(["/api/admin/users", "/api/admin/audit", "/api/admin/approvals", "/api/admin/transfer-requests"])(
    "answers %s with a cursor holding an impossible time with 400 invalidCursor",
    async (url) => {
      for (const at of ["9999-99-99T99:99:99.000000Z", "2026-02-30T10:00:00.000000Z"]) {
        const parts = url.endsWith("approvals") ? ["1", at, SOME_UUID] : [at, SOME_UUID];
        const res = await get(owner.cookie, `${url}?cursor=${cursorOf(parts)}`);
        // Lists keyed by a number refuse the time cursor as garbage: 400 either way, never a 500.
        expect(res.statusCode, `${url} ${at} ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ message: PAGE_MESSAGES.invalidCursor });
      }
    },
  );

  it("answers a customer's transaction cursor with an impossible time with 400", async () => {
    const forged = Buffer.from(`9999-99-99T00:00:00.000Z|${SOME_UUID}`).toString("base64url");
    const res = await get(customer.cookie, `/api/transactions?cursor=${forged}`);
    expect(res.statusCode, res.body).toBe(400);
  });

  it("answers a statement for a month that does not exist with 400", async () => {
    const res = await get(customer.cookie, "/api/statements/2026-13.pdf");
    expect(res.statusCode, res.body).toBe(400);
  });
});
