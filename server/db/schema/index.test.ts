import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The schema is one file per area re-exported by index.ts: a file left out of it would still type its queries
// but drop out of the schema-against-migrations test (decision 074) and of the query builder's table list.
describe("server/db/schema/index.ts", () => {
  it("re-exports every area's file, and nothing that is not there", () => {
    const dir = import.meta.dirname;
    const areas = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "index.ts" && f !== "columns.ts")
      .map((f) => `./${path.basename(f, ".ts")}`)
      .sort();
    const index = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    const exported = [...index.matchAll(/^export \* from "([^"]+)";$/gm)].map((m) => m[1]).sort();
    expect(exported).toEqual(areas);
  });
});
