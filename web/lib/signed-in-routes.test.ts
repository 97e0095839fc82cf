import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isSignedInPath } from "@/web/lib/signed-in-routes";

const SERVER = path.resolve(import.meta.dirname, "../../server");

/** Every `link: "/…"` or `link: \`/…\`` the server writes into a notification (and its e-mail), parameters filled in. */
function serverLinks(): { file: string; link: string }[] {
  const found: { file: string; link: string }[] = [];
  for (const entry of fs.readdirSync(SERVER, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".ts") || entry.endsWith(".test.ts")) continue;
    const source = fs.readFileSync(path.join(SERVER, entry), "utf8");
    for (const match of source.matchAll(/\blink: ["`](\/[^"`]*)["`]/g))
      found.push({ file: entry, link: match[1]!.replace(/\$\{[^}]+\}/g, "abc-123") });
  }
  return found;
}

describe("the links the server sends", () => {
  it("all open a page of the route table, so a signed-out reader is asked to sign in and brought back", () => {
    const links = serverLinks();
    // The skipped schedule's e-mail (/schedules) and a transfer's (/transfers/<id>) among them.
    expect(links.map((l) => l.link)).toEqual(expect.arrayContaining(["/schedules", "/transfers/abc-123"]));
    for (const { file, link } of links) expect(isSignedInPath(link), `${file}: ${link}`).toBe(true);
  });
});
