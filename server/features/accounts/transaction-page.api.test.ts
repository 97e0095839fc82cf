import { describe, expect, it } from "vitest";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

const t = setUpTestApp();
const page = (who: SignedInUser, query: string) =>
  t.app.inject({ method: "GET", url: `/api/transactions?${query}`, headers: { cookie: who.cookie } });

/** History rows written straight to the table at the given instants (the list reads nothing else). */
async function history(who: SignedInUser, instants: string[]) {
  for (const [i, at] of instants.entries()) {
    await t.database.query(
      `insert into transactions (user_id, type, amount, fee, net_amount, description, category, status, source_type,
         created_at)
       values ($1, 'credit', $2, 0, $2, $3, 'other', 'completed', 'incoming_payment', $4)`,
      [who.user.id, 100 + i, `Row ${i}`, at],
    );
  }
}

async function allPages(who: SignedInUser, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await page(who, `limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.statusCode, res.body).toBe(200);
    seen.push(...res.json().items.map((i: { description: string }) => i.description));
    cursor = res.json().nextCursor;
  } while (cursor);
  return seen;
}

describe("a customer's history, page by page", () => {
  it("skips no row written within the same millisecond as a page's last one", async () => {
    const customer = await createVerifiedUser(t.database);
    await history(customer, [
      "2026-03-01T10:00:00.123100Z",
      "2026-03-01T10:00:00.123200Z",
      "2026-03-01T10:00:00.123300Z",
      "2026-03-01T10:00:00.124000Z",
      "2026-02-01T10:00:00.000000Z",
    ]);
    expect(await allPages(customer, 1)).toEqual(["Row 3", "Row 2", "Row 1", "Row 0", "Row 4"]);
    expect(await allPages(customer, 2)).toEqual(["Row 3", "Row 2", "Row 1", "Row 0", "Row 4"]);
  });

  it("still reads a cursor in milliseconds, and refuses a malformed one with 400", async () => {
    const customer = await createVerifiedUser(t.database);
    await history(customer, ["2026-03-01T10:00:02.000000Z", "2026-03-01T10:00:01.000000Z"]);
    const legacy = Buffer.from("2026-03-01T10:00:01.500Z|ffffffff-ffff-4fff-bfff-ffffffffffff").toString(
      "base64url",
    );
    const res = await page(customer, `cursor=${legacy}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { description: string }) => i.description)).toEqual(["Row 1"]);
    for (const bad of ["2026-03-01T10:00:02.000Z|------------------------------------", "garbage|x"]) {
      const cursor = Buffer.from(bad).toString("base64url");
      expect((await page(customer, `cursor=${cursor}`)).statusCode, bad).toBe(400);
    }
  });
});
