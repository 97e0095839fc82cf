import fs from "node:fs";
import path from "node:path";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { cn } from "@/web/lib/cn";

const WEB_DIR = path.join(import.meta.dirname, "..");

/** Every whitespace-separated word of every string literal under web/ (tests aside): each class written. */
function classesWritten(): string[] {
  const words = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.(tsx?|html)$/.test(entry.name) && !entry.name.includes(".test.")) {
        for (const [, text] of fs.readFileSync(file, "utf8").matchAll(/["'`]([^"'`\n]*)["'`]/g)) {
          for (const word of text!.split(/\s+/)) if (word) words.add(word);
        }
      }
    }
  };
  visit(WEB_DIR);
  return [...words];
}

describe("cn", () => {
  it("recognises every class written under web/ as tailwind-merge's full config does", () => {
    // A class is in a group when a repeat of it collapses into one; a class whose group cn's config left out
    // stays repeated. Such a class needs its group added to CLASS_GROUPS_IN_USE (web/lib/cn.ts).
    const words = classesWritten();
    expect(words.length).toBeGreaterThan(1000);
    const missing = words.filter((word) => cn(`${word} ${word}`) !== twMerge(`${word} ${word}`));
    expect(missing).toEqual([]);
  });

  it("lets a later class override an earlier one of the same group, as tailwind-merge does", () => {
    const cases = [
      ["h-10 px-4 py-2", "h-8 px-3"],
      ["p-6", "p-0"],
      ["text-sm font-medium text-ink-muted", "text-lg text-ink"],
      ["rounded-lg bg-brand-800 text-white hover:bg-brand-700", "bg-negative hover:bg-negative/90"],
      ["hidden sm:inline-flex", "sm:hidden"],
      ["grid gap-6", "flex gap-2"],
      ["w-full max-w-6xl", "max-w-md"],
      ["border border-line", "border-0"],
    ] as const;
    for (const [base, override] of cases) expect(cn(base, override)).toBe(twMerge(base, override));
    expect(cn("p-6", "p-0")).toBe("p-0");
    expect(cn("px-4 [overflow-wrap:anywhere]", { "text-right": true, hidden: false })).toBe(
      "px-4 [overflow-wrap:anywhere] text-right",
    );
  });
});
