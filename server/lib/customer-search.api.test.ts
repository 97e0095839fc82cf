import { describe, expect, it } from "vitest";
import { PAGE_MESSAGES } from "@/contract/pages";
import { LIST_SEARCH_SCAN_ROWS } from "@/server/lib/keyset-page";
import { createApprovedCustomer, expectLedgerClean } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser, uniqueSuffix } from "@/tests/support/users";

// Decision 067: a staff list's search finds the customers a term names through their own indexes first and lists
// their rows; a term naming no customer is matched row by row, at most LIST_SEARCH_SCAN_ROWS rows a page, a short
// page carrying the cursor to go on from. Each list is its own database here (setUpTestApp), so the counts are ours.

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);

const get = (url: string, who: SignedInUser = admin) =>
  t.app.inject({ method: "GET", url, headers: { cookie: who.cookie } });
const post = (url: string, payload: object) =>
  t.app.inject({ method: "POST", url, payload, headers: { cookie: admin.cookie } });

interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

/** Every page of a search, in order: each page's own items and whether it carried a cursor. */
async function pagesOf<T>(url: string, limit = 5) {
  const pages: Paged<T>[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(`${url}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Paged<T>;
    expect(page.items.length).toBeLessThanOrEqual(limit);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe("a staff list's search", () => {
  it("lists the rows of the customers a term names, whatever their own text, and only theirs", async () => {
    const marker = `ls${uniqueSuffix()}`;
    const named = await createApprovedCustomer(t.database, { lastName: `Quill${marker}` });
    const other = await createApprovedCustomer(t.database);
    for (const [who, description] of [
      [named, "Salary"],
      [named, "Refund"],
      [other, `Quill${marker} bonus`],
    ] as const) {
      const res = await post("/api/admin/incoming-payments", {
        userId: who.user.id,
        amount: "5.00",
        description,
        status: "pending",
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const ownRows = async (table: string, userId: string) =>
      (
        await t.database.query<{ id: string }>(
          `select id from ${table} where user_id = $1 order by created_at desc, id desc`,
          [userId],
        )
      ).map((r) => r.id);

    // A fragment of the last name, the whole e-mail, the $tag: each names the customer; their rows come, the other
    // customer's row whose description holds the same fragment does not (the term named a customer).
    for (const q of [`quill${marker}`, named.email.toUpperCase(), `$${named.user.pillarTag}`]) {
      const [page, ...more] = await pagesOf<{ id: string }>(
        `/api/admin/incoming-payments?status=all&q=${encodeURIComponent(q)}`,
      );
      expect(more, q).toEqual([]);
      expect(page!.items.map((p) => p.id)).toEqual(await ownRows("incoming_payments", named.user.id));
    }
    // The other lists that belong to customers answer the same way.
    const kyc = (await get(`/api/admin/kyc-applications?status=all&q=quill${marker}`)).json() as Paged<{
      id: string;
    }>;
    expect(kyc.items.map((k) => k.id)).toEqual(await ownRows("kyc_applications", named.user.id));
    const requests = (await get(`/api/admin/account-requests?status=all&q=quill${marker}`)).json() as Paged<{
      id: string;
    }>;
    expect(requests.items.map((r) => r.id)).toEqual(await ownRows("account_requests", named.user.id));
    // A term naming nobody on a list without text of its own: nothing, answered by the index alone.
    const cases = (
      await get(`/api/admin/compliance/cases?status=all&q=nobody${marker}`)
    ).json() as Paged<unknown>;
    expect(cases).toEqual({ items: [], nextCursor: null });
    await expectLedgerClean(t.database);
  });

  it("matches a row's own text a stretch at a time, and the cursor of a short page goes on to the match", async () => {
    const marker = `needle${uniqueSuffix()}`;
    const owner = await createApprovedCustomer(t.database);
    // The match, oldest of all, then more than one stretch of rows newer than it that do not match.
    await t.database.query(
      `insert into incoming_payments (user_id, amount, description, payment_for, from_account, from_routing,
         recipient_name, created_at)
       select $1, 100, case when g = 0 then 'Wire ' || $2 else 'Wire ' || g end, 'Payment', '12345678', '021000021',
         'Ada Lovelace', timestamptz '2001-01-01' + g * interval '1 second'
       from generate_series(0, $3::int) g`,
      [owner.user.id, marker, LIST_SEARCH_SCAN_ROWS + 1500],
    );
    const pages = await pagesOf<{ id: string; description: string }>(
      `/api/admin/incoming-payments?status=all&q=${marker}`,
    );
    // The first stretch holds no match: an empty page, and a cursor rather than "no results".
    expect(pages[0]!.items).toEqual([]);
    expect(pages[0]!.nextCursor).not.toBeNull();
    const found = pages.flatMap((p) => p.items);
    expect(found.map((p) => p.description)).toEqual([`Wire ${marker}`]);
    // Two stretches cover every row: no page read the whole table, and the walk ended.
    expect(pages).toHaveLength(2);
    expect(pages.at(-1)!.nextCursor).toBeNull();

    // A frequent text fills its page from the first stretch, with the ordinary cursor.
    const frequent = (
      await get("/api/admin/incoming-payments?status=all&q=Wire%201&limit=5")
    ).json() as Paged<{
      description: string;
    }>;
    expect(frequent.items).toHaveLength(5);
    expect(frequent.items.every((p) => p.description.includes("Wire 1"))).toBe(true);
    expect(frequent.nextCursor).not.toBeNull();

    // A forged cursor is still refused, search or not.
    const forged = await get(`/api/admin/incoming-payments?status=all&q=${marker}&cursor=bm90LWpzb24`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ message: PAGE_MESSAGES.invalidCursor });
    await expectLedgerClean(t.database);
  });
});
