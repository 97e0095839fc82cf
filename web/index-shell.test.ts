import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BRAND } from "@/contract/brand";

const html = fs.readFileSync(path.join(import.meta.dirname, "index.html"), "utf8");

describe("the static shell in index.html", () => {
  it("names the brand from contract/brand.ts and announces the load", () => {
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf("</body>"));
    expect(root).toContain(`>${BRAND.name}</span>`);
    expect(root).toContain('role="status"');
    expect(root).toContain("Loading…");
  });
});
