import { splitStatements } from "@/server/db/migrate";

/**
 * The last migration written before online migrations were required (decision 064): later ones are checked.
 */
export const LAST_UNCHECKED_MIGRATION = 50;

/**
 * The reviewed exception: a statement the check would refuse that a reviewer found short on any table size (a
 * table that stays small, a lookup table). The reason follows the marker on the same line.
 */
export const LOCK_OK_MARKER = "-- pillar:lock-ok";

const VOLATILE_DEFAULT =
  /\bdefault\s+[^,;]*\b(now|random|gen_random_uuid|clock_timestamp|nextval|uuid_generate_v4|timeofday|statement_timestamp)\s*\(/i;
const ident = String.raw`"?([a-z_][a-z0-9_]*)"?(?:\."?([a-z_][a-z0-9_]*)"?)?`;
const tableName = (m: RegExpExecArray, at: number) => (m[at + 1] ?? m[at])!.toLowerCase();

/**
 * What in a migration would hold a lock on a table that already has rows for as long as the table is big (so
 * writes, or reads too, wait): PostgreSQL's rules, checked on the text. A table the same migration creates is
 * empty and exempt. Answers one line per problem, naming the statement.
 */
export function onlineProblems(text: string, file = "migration"): string[] {
  const statements = splitStatements(text, file);
  const created = new Set<string>();
  const problems: string[] = [];
  for (const [n, statement] of statements.entries()) {
    const lines = statement.text.split("\n");
    const body = lines
      .map((line) => line.replace(/--.*$/, ""))
      .join(" ")
      .replace(/\s+/g, " ")
      .trim();
    const reviewed = lines.some((line) => line.trim().startsWith(`${LOCK_OK_MARKER} `));
    const where = `${file}, statement ${n + 1} (${body.slice(0, 70)}…)`;
    const problem = (why: string) => {
      if (!reviewed) problems.push(`${where}: ${why}`);
    };
    const createTable = new RegExp(`^create (?:unlogged )?table (?:if not exists )?${ident}`, "i").exec(body);
    if (createTable) {
      created.add(tableName(createTable, 1));
      continue;
    }
    const index = new RegExp(
      String.raw`^create (?:unique )?index (concurrently )?(?:if not exists )?\S+ on (?:only )?${ident}`,
      "i",
    ).exec(body);
    if (index) {
      if (!created.has(tableName(index, 2)) && !index[1] && !statement.concurrently)
        problem(
          `an index on an existing table needs the "-- pillar:concurrently" marker (a plain build blocks writes)`,
        );
      continue;
    }
    if (/^drop index (?!concurrently)/i.test(body) && !statement.concurrently) {
      problem(
        `DROP INDEX needs the "-- pillar:concurrently" marker (a plain drop takes an ACCESS EXCLUSIVE lock)`,
      );
      continue;
    }
    if (/^(reindex|cluster|vacuum full|lock table)\b/i.test(body)) {
      problem("REINDEX, CLUSTER, VACUUM FULL and LOCK TABLE lock the table for as long as it is big");
      continue;
    }
    const alter = new RegExp(`^alter table (?:if exists )?(?:only )?${ident} (.*)$`, "i").exec(body);
    if (alter) {
      if (created.has(tableName(alter, 1))) continue;
      const actions = alter[3]!;
      if (/\badd (?:column )?(?:if not exists )?\S+ [^,]*/i.test(actions) && VOLATILE_DEFAULT.test(actions))
        problem(
          "ADD COLUMN with a volatile default rewrites the table (add it without, then backfill in batches)",
        );
      if (/\balter (?:column )?\S+ (?:set data )?type\b/i.test(actions))
        problem(
          "ALTER COLUMN ... TYPE rewrites the table under an ACCESS EXCLUSIVE lock (add a column, backfill, swap)",
        );
      if (/\badd constraint \S+ (check|foreign key)\b/i.test(actions) && !/\bnot valid\b/i.test(actions))
        problem(
          "ADD CONSTRAINT scans the table under its lock: add it NOT VALID, then VALIDATE CONSTRAINT apart",
        );
      if (/\badd (?:constraint \S+ )?(unique|primary key)\b(?! using index)/i.test(actions))
        problem(
          "ADD UNIQUE / PRIMARY KEY builds its index under the lock: build it concurrently, then USING INDEX",
        );
      if (/\bset not null\b/i.test(actions))
        problem("SET NOT NULL scans the table under an ACCESS EXCLUSIVE lock (a validated CHECK first)");
      continue;
    }
    const write = new RegExp(`^(?:update (?:only )?|delete from (?:only )?)${ident}`, "i").exec(body);
    if (write && !created.has(tableName(write, 1)))
      problem(
        'an UPDATE or DELETE of an existing table locks its rows until the migration commits: backfill in batches (a procedure that commits, called under "-- pillar:outside-transaction")',
      );
  }
  return problems;
}
