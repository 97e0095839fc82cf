import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

// Evaluated through the DevTools protocol rather than a <script> tag, which the app's CSP rightly refuses.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is now and fails on serious or critical violations, naming each rule and
 * the elements it flagged. Minor and moderate findings (heading order, say) are left to Lighthouse's report.
 */
export async function expectAccessible(page: Page, what: string) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(options: { resultTypes: string[] }): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    // Only violations are read: axe then keeps one example node for passes and "incomplete", not every one.
    return (await axe.run({ resultTypes: ["violations"] })).violations;
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes
          .slice(0, 6)
          .map(
            (n) =>
              `    ${n.target.join(" ")} — ${(n.failureSummary ?? "").split("\n").slice(1, 2).join("").trim()}`,
          )
          .join("\n")}`,
    )
    .join("\n");
  expect.soft(serious.length, `axe on ${what}:\n${report}`).toBe(0);
}
