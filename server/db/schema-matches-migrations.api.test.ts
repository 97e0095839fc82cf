import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { createTestDatabase } from "@/tests/support/test-database";

// The migrations are written by hand (decision 074): `server/db/schema/` is the query builder's typed view of
// the tables they make, and nothing generates one from the other. This keeps them honest: every table and column
// the schema declares exists in the migrated database, with the same nullability.
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const tables: PgTable[] = (Object.values(schema) as unknown[]).filter(
  (value): value is PgTable =>
    typeof value === "object" && value !== null && Symbol.for("drizzle:IsDrizzleTable") in value,
);

describe("server/db/schema against the migrated database", () => {
  it("declares only tables and columns the migrations make, each as nullable as it is there", async () => {
    expect(tables.length).toBeGreaterThan(40);
    const rows = await database.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`,
    );
    const actual = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.is_nullable === "NO"]));
    const problems: string[] = [];
    for (const table of tables) {
      const config = getTableConfig(table);
      for (const column of config.columns) {
        const key = `${config.name}.${column.name}`;
        const notNull = actual.get(key);
        if (notNull === undefined) problems.push(`${key}: not in the database`);
        else if (notNull !== column.notNull)
          problems.push(
            `${key}: ${column.notNull ? "NOT NULL" : "nullable"} in server/db/schema, not in the database`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
