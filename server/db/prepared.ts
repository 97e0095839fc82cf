import type { Db } from "@/server/db/client";

/**
 * A query built and named once per database, then only bound and executed: on PostgreSQL a named
 * statement is parsed and planned once per connection, and Drizzle skips rebuilding the SQL. For the
 * hot polls, where a request is one small query.
 */
export function preparedPerDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const byDatabase = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDatabase.get(db);
    if (!prepared) {
      prepared = build(db);
      byDatabase.set(db, prepared);
    }
    return prepared;
  };
}
