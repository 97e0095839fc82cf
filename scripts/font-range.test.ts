import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { BASIC_UNICODE_RANGE } from "./font-range.mjs";

function inRange(code: number): boolean {
  return BASIC_UNICODE_RANGE.split(",").some((part) => {
    const [from, to = from] = part.replace(/U\+/g, "").split("-");
    return code >= Number.parseInt(from!, 16) && code <= Number.parseInt(to!, 16);
  });
}

describe("the basic Inter subset", () => {
  it("is declared in web/styles.css with the same unicode-range", () => {
    const css = fs.readFileSync("web/styles.css", "utf8").replace(/\s+/g, "");
    expect(css).toContain(`unicode-range:${BASIC_UNICODE_RANGE};`);
    expect(css).toContain("url(./fonts/inter-basic-wght.woff2)");
  });

  it("covers every character the web's own texts use, so no page needs the full font for them", () => {
    const files = execFileSync("git", ["ls-files", "web/*.tsx", "web/*.ts", "contract/*.ts"], {
      encoding: "utf8",
    })
      .split("\n")
      .filter((f) => f && !f.includes(".test."));
    const missing = new Set<string>();
    for (const file of files) {
      for (const char of fs.readFileSync(file, "utf8")) {
        const code = char.codePointAt(0)!;
        if (code > 0x7e && !inRange(code)) missing.add(`${char} U+${code.toString(16)} in ${file}`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
