import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, named, queryRows, queryRowsUnchecked, RowShapeError } from "@/server/db/client";
import { createTestDatabase } from "@/tests/support/test-database";

// Runs on PostgreSQL with DATABASE_URL and on PGlite without it: the helper must answer the same on both.
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const idRow = z.object({ id: z.number() });

describe("queryRows", () => {
  it("returns the rows of a raw statement, in order", async () => {
    const rows = await queryRows(
      database.db,
      sql`select n, 'row ' || n as label from generate_series(1, ${3}::int) as n order by n`,
      z.object({ n: z.number(), label: z.string() }),
    );
    expect(rows).toEqual([
      { n: 1, label: "row 1" },
      { n: 2, label: "row 2" },
      { n: 3, label: "row 3" },
    ]);
  });

  it("returns no rows for a statement that returns none", async () => {
    await database.query("create temporary table query_rows_probe (id int)");
    expect(await queryRows(database.db, sql`insert into query_rows_probe values (1)`, z.never())).toEqual([]);
    expect(await queryRows(database.db, sql`select id from query_rows_probe where id = 2`, idRow)).toEqual(
      [],
    );
  });

  it("runs inside an open transaction and sees its uncommitted writes", async () => {
    await database.query("create table query_rows_tx (id int primary key)");
    let seen: { id: number }[] = [];
    const rolledBack = database.db.transaction(async (tx) => {
      await queryRows(tx, sql`insert into query_rows_tx values (7)`, z.never());
      // On PostgreSQL another pool connection would not see the row: this read went through the transaction.
      seen = await queryRows(tx, sql`select id from query_rows_tx`, idRow);
      throw new Error("roll back");
    });
    await expect(rolledBack).rejects.toThrow("roll back");
    expect(seen).toEqual([{ id: 7 }]);
    expect(await queryRows(database.db, sql`select id from query_rows_tx`, idRow)).toEqual([]);
  });

  it("runs a named statement as a prepared statement on PostgreSQL, bound anew on every call", async () => {
    await database.query("create table query_rows_named (id int primary key)");
    const read = (tx: Parameters<typeof queryRows>[0], id: number) =>
      queryRows(
        tx,
        named("query_rows_named_read", sql`select id from query_rows_named where id >= ${id} order by id`),
        idRow,
      );
    await database.db.transaction(async (tx) => {
      await queryRows(tx, sql`insert into query_rows_named values (1), (2), (3)`, z.never());
      // The same connection (the transaction's) twice: parsed once, then only bound with the new value.
      expect(await read(tx, 2)).toEqual([{ id: 2 }, { id: 3 }]);
      expect(await read(tx, 3)).toEqual([{ id: 3 }]);
      const kept = await queryRows(
        tx,
        sql`select name, statement from pg_prepared_statements where name = 'query_rows_named_read'`,
        z.object({ name: z.string(), statement: z.string() }),
      );
      // PGlite runs it as any statement: only PostgreSQL keeps it by name.
      if (database.kind === "pg") {
        expect(kept).toEqual([
          {
            name: "query_rows_named_read",
            statement: "select id from query_rows_named where id >= $1 order by id",
          },
        ]);
      } else expect(kept).toEqual([]);
    });
    expect(await read(database.db, 0)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it("checks and parses every row with a zod schema", async () => {
    const rows = await queryRows(
      database.db,
      sql`select 12345::bigint::text as cents, true as open`,
      z.object({ cents: z.string().transform(BigInt), open: z.boolean() }),
    );
    expect(rows).toEqual([{ cents: 12345n, open: true }]);
  });

  it("refuses a row that does not match the schema, naming the row and the field", async () => {
    const query = queryRows(
      database.db,
      sql`select * from (values (1, 'a'), (2, null)) as v(id, name) order by id`,
      z.object({ id: z.number(), name: z.string() }),
    );
    await expect(query).rejects.toBeInstanceOf(RowShapeError);
    await expect(query).rejects.toThrow(/Row 2 of a query does not match its schema:[\s\S]*name/);
  });

  it("answers the rows as they come, unchecked, only where asked by name", async () => {
    // No schema: a bigint comes back as each driver gives it (text on PostgreSQL, a number on PGlite).
    const [row] = await queryRowsUnchecked<{ n: unknown }>(database.db, sql`select 7::bigint as n`);
    expect(row).toEqual({ n: database.kind === "pg" ? "7" : 7 });
  });
});
