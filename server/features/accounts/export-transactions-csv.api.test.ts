import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { CSV_BATCH_ROWS } from "@/server/features/accounts/export-transactions-csv";
import { expectLedgerClean } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpVerifiedUser } from "@/tests/support/users";

const ROWS = 5000;
let baseUrl: string;
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const customer = setUpVerifiedUser(t);
const other = setUpVerifiedUser(t);

beforeAll(async () => {
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // A long history in one set-based insert: three rows share each microsecond (ties broken by id), many share a
  // millisecond, and every 97th description needs quoting or formula neutralising.
  await t.database.query(
    `insert into transactions (user_id, type, amount, fee, net_amount, description, category, status, source_type, created_at)
     select $1, case when g % 2 = 0 then 'debit' else 'credit' end, g * 7 + 1, g % 13, g * 7 + 1 - g % 13,
            case when g % 97 = 0 then '=SUM(A1), "quoted"' else 'Row ' || g end,
            'other', 'completed', 'admin',
            timestamptz '2025-06-01 12:00:00+00' - (g / 3) * interval '1 microsecond'
     from generate_series(1, ${ROWS}) g`,
    [customer.user.id],
  );
  await t.database.query(
    `insert into transactions (user_id, type, amount, net_amount, description, status, source_type)
     values ($1, 'credit', 100, 100, 'Not yours', 'completed', 'admin')`,
    [other.user.id],
  );
});

/** Splits CSV text into rows of cells (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

describe("the CSV export of a long history", () => {
  it("streams every transaction exactly once, newest first, to the cent", async () => {
    const res = await fetch(`${baseUrl}/api/transactions/export.csv`, {
      headers: { cookie: customer.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    // Streamed: no length known up front, sent chunked as the batches are read.
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(1);

    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "id",
      "date",
      "type",
      "description",
      "category",
      "status",
      "amount",
      "fee",
      "net_amount",
    ]);
    expect(rows).toHaveLength(ROWS);
    expect(ROWS).toBeGreaterThan(CSV_BATCH_ROWS * 4);

    const expected = await t.database.query<{ id: string; amount: string; fee: string; net_amount: string }>(
      `select id, amount::text, fee::text, net_amount::text from transactions where user_id = $1
       order by created_at desc, id desc`,
      [customer.user.id],
    );
    expect(rows.map((r) => r[0])).toEqual(expected.map((e) => e.id));
    const cents = (decimal: string) => Math.round(Number(decimal) * 100);
    rows.forEach((r, i) => {
      const e = expected[i]!;
      expect([cents(r[6]!), cents(r[7]!), cents(r[8]!)], r[0]).toEqual([
        Number(e.amount),
        Number(e.fee),
        Number(e.net_amount),
      ]);
      expect(r[6]).toMatch(/^\d+\.\d\d$/);
    });
    const total = rows.reduce((sum, r) => sum + cents(r[6]!), 0);
    const [{ sum }] = await t.database.query<{ sum: string }>(
      "select sum(amount)::text as sum from transactions where user_id = $1",
      [customer.user.id],
    );
    expect(total).toBe(Number(sum));
    // A formula-looking description is neutralised and quoted, never executable in a spreadsheet.
    expect(rows.find((r) => r[3]!.includes("SUM"))![3]).toBe(`'=SUM(A1), "quoted"`);
    expect(text).not.toContain("Not yours");
    await expectLedgerClean(t.database);
  });

  it("answers another customer with only their own rows, and the signed out with 401", async () => {
    const mine = await t.app.inject({
      method: "GET",
      url: "/api/transactions/export.csv",
      headers: { cookie: other.cookie },
    });
    const lines = mine.body.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("Not yours");
    const signedOut = await t.app.inject({ method: "GET", url: "/api/transactions/export.csv" });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().message).toEqual(expect.any(String));
  });
});
