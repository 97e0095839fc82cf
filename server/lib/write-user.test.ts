import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "@/server/lib/project-root";

// A write to `users` outside server/lib/write-user.ts would skip the session-cache forget: signed-in requests
// would see the old row (roles, freeze, password state) for up to SESSION_CACHE_MS on every instance.
const ONE_HOME = path.join("server", "lib", "write-user.ts");
const USERS_WRITE = [
  /\.(update|delete)\(\s*users\s*\)/, // Drizzle
  /\bupdate\s+"?users"?\s+set\b/i, // SQL
  /\bdelete\s+from\s+"?users"?\b/i,
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [file] : [];
  });
}

describe("writes to users", () => {
  it("all go through server/lib/write-user.ts", () => {
    const offenders = sourceFiles(path.join(PROJECT_ROOT, "server")).flatMap((file) => {
      const relative = path.relative(PROJECT_ROOT, file);
      // The migration steps are tests: they write users rows as an older schema held them (decision 076).
      if (relative === ONE_HOME || relative.startsWith(path.join("server", "db", "migration-steps")))
        return [];
      const text = fs.readFileSync(file, "utf8");
      return USERS_WRITE.some((pattern) => pattern.test(text)) ? [relative] : [];
    });
    expect(offenders).toEqual([]);
  });

  it("the check sees the forms it looks for", () => {
    const home = fs.readFileSync(path.join(PROJECT_ROOT, ONE_HOME), "utf8");
    expect(home).toMatch(USERS_WRITE[0]!);
    expect("update users set frozen_at = now()").toMatch(USERS_WRITE[1]!);
    expect('DELETE FROM "users" WHERE id = $1').toMatch(USERS_WRITE[2]!);
  });
});
