import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LAST_UNCHECKED_MIGRATION, onlineProblems } from "@/server/db/migration-lint";
import { PROJECT_ROOT } from "@/server/lib/project-root";

const MIGRATIONS = path.join(PROJECT_ROOT, "server/db/migrations");
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta/_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};

describe("every migration after 0050 runs online at a million customers", () => {
  const checked = journal.entries.filter((e) => e.idx > LAST_UNCHECKED_MIGRATION);
  it.each(checked.map((e) => e.tag))("%s", (tag) => {
    const file = `server/db/migrations/${tag}.sql`;
    expect(onlineProblems(fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8"), file)).toEqual([]);
  });
});

describe("the online check", () => {
  const problems = (...statements: string[]) =>
    onlineProblems(statements.join("\n--> statement-breakpoint\n"));

  it("refuses a plain index on an existing table, and takes it marked or on a table the migration creates", () => {
    expect(problems('CREATE INDEX IF NOT EXISTS "users_x" ON "users" ("x");')).toEqual([
      expect.stringMatching(/needs the "-- pillar:concurrently" marker/),
    ]);
    expect(
      problems('-- pillar:concurrently\nCREATE INDEX IF NOT EXISTS "users_x" ON "users" USING gin ("x");'),
    ).toEqual([]);
    expect(problems('CREATE TABLE "fresh" ("x" int);', 'CREATE INDEX "fresh_x" ON "fresh" ("x");')).toEqual(
      [],
    );
    expect(problems('DROP INDEX "users_x";')).toHaveLength(1);
  });

  it("refuses what rewrites or scans a table under its lock", () => {
    const refused = [
      'ALTER TABLE "users" ADD COLUMN "seen_at" timestamptz DEFAULT now() NOT NULL;',
      'ALTER TABLE "users" ADD COLUMN "ref" uuid DEFAULT gen_random_uuid();',
      'ALTER TABLE "transactions" ALTER COLUMN "amount" TYPE numeric;',
      'ALTER TABLE "transactions" ADD CONSTRAINT "t_amount" CHECK ("amount" > 0);',
      'ALTER TABLE "postings" ADD CONSTRAINT "p_fk" FOREIGN KEY ("x") REFERENCES "y"("id");',
      'ALTER TABLE "users" ADD CONSTRAINT "users_tag" UNIQUE ("tag");',
      'ALTER TABLE "users" ALTER COLUMN "tag" SET NOT NULL;',
      "UPDATE users SET tag = lower(tag);",
      "DELETE FROM events WHERE created_at < now() - interval '1 year';",
      "VACUUM FULL events;",
    ];
    for (const statement of refused) expect(problems(statement), statement).toHaveLength(1);
  });

  it("takes what is quick on any size", () => {
    const taken = [
      'ALTER TABLE "users" ADD COLUMN "kind" text DEFAULT \'xpub\' NOT NULL;',
      'ALTER TABLE "users" ADD COLUMN "note" text;',
      'ALTER TABLE "transactions" ADD CONSTRAINT "t_amount" CHECK ("amount" > 0) NOT VALID;',
      'ALTER TABLE "transactions" VALIDATE CONSTRAINT "t_amount";',
      'ALTER TABLE "users" ADD CONSTRAINT "users_tag" UNIQUE USING INDEX "users_tag_idx";',
      "-- pillar:lock-ok settings has one row\nUPDATE settings SET v = 1;",
      'CREATE TABLE "t" ("id" int);\n--> statement-breakpoint\nUPDATE "t" SET id = 1;',
    ];
    for (const statement of taken) expect(problems(statement), statement).toEqual([]);
  });
});
