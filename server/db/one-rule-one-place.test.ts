import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readFunctionFiles } from "@/server/db/sql-functions";

/**
 * Decision 019: a rule the money path enforces is written once, as a SQL function in server/db/functions, and
 * TypeScript (server or web) calls it or shows what the server answered instead of keeping a copy. This scans
 * the code for each rule's shapes, in SQL and in TypeScript, and for the comments that used to hold two copies
 * together. Migrations are history (an applied one never changes) and tests restate rules on purpose: neither
 * is scanned.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["server", "contract", "web"];
// The migration steps are tests: they write rows as an older schema held them (decision 076).
const NOT_SCANNED = [
  /\/node_modules\//,
  /^server\/db\/migrations\//,
  /^server\/db\/migration-steps\//,
  /\.test\.tsx?$/,
];
const SOURCE = /\.(ts|tsx|sql|mjs)$/;

const RULES: { rule: string; home: string; shapes: RegExp[] }[] = [
  {
    rule: "the send-money gate (approved KYC and an approved account with a number)",
    home: "server/db/functions/can-send-money.sql",
    shapes: [
      /account_number\s+is\s+not\s+null/i,
      /accountNumber[\s\S]{0,80}kyc\??\.status\s*===\s*["']approved["']/,
      /kyc\??\.status\s*===\s*["']approved["'][\s\S]{0,120}accountNumber\b/,
      /function\s+canSendMoney\s*\(\s*\{/,
    ],
  },
  {
    rule: "having a second factor (a confirmed authenticator or a passkey)",
    home: "server/db/functions/has-second-factor.sql",
    shapes: [
      /totp_factors[\s\S]{0,120}confirmed_at\s+is\s+not\s+null\s*\)\s*or\s+exists[\s\S]{0,40}passkeys/i,
      /hasTotp\s*\|\|\s*[\w.!]*passkeyCount\s*>\s*0/,
      /has_totp\s*\|\|/,
    ],
  },
  {
    rule: "a lookalike of a saved recipient's address",
    home: "server/db/functions/lookalike-recipient.sql",
    shapes: [
      /regexp_replace\([^)]*'\^0x'/i,
      /LOOKALIKE_EDGE/,
      /function\s+(isLookalikeAddress|addressCore)\b/,
    ],
  },
  {
    rule: "today's total against the daily limit",
    home: "server/db/functions/transfers-today.sql",
    shapes: [/sum\(\s*\w+\.amount\s*\)\s*filter\s*\(\s*where\s+\w+\.status\s+in\s*\(\s*'pending'/i],
  },
  {
    rule: "placing a hold",
    home: "server/db/functions/place-hold.sql",
    shapes: [/set\s+held\s*=\s*held\s*\+/i],
  },
];

/** Comments that held two copies of a rule together. */
const TWO_COPIES = /change (them|these|both) together|kept in step with|mirrors [\w.]+Sql\b/i;
/**
 * Prose for customers that states what the code does (retention periods on the Privacy and Security pages): text
 * to keep true, not a rule the code runs twice.
 */
const PROSE = new Set(["web/features/marketing/trust-content.ts"]);

function sourceFiles(): { file: string; text: string }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (NOT_SCANNED.some((re) => re.test(`${file}${entry.isDirectory() ? "/" : ""}`))) continue;
      if (entry.isDirectory()) walk(file);
      else if (SOURCE.test(entry.name)) files.push(file);
    }
  };
  for (const dir of SCANNED) walk(dir);
  return files.map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }));
}

describe("one rule, one place", () => {
  const files = sourceFiles();

  it("scans the server, the contract, the web and the SQL functions", () => {
    expect(files.some((f) => f.file.startsWith("server/db/functions/"))).toBe(true);
    expect(files.some((f) => f.file.startsWith("web/"))).toBe(true);
    expect(files.some((f) => f.file.startsWith("contract/"))).toBe(true);
  });

  it.each(RULES)("writes $rule once, in $home", ({ home, shapes }) => {
    const homes = files.filter((f) => shapes.some((shape) => shape.test(f.text))).map((f) => f.file);
    expect(homes).toEqual([home]);
  });

  it("holds no two copies together with a comment", () => {
    const paired = files.filter((f) => !PROSE.has(f.file) && TWO_COPIES.test(f.text)).map((f) => f.file);
    expect(paired).toEqual([]);
  });

  it("creates each SQL function in one file of server/db/functions, and nowhere else in the code", () => {
    const byName = new Map<string, string[]>();
    for (const f of readFunctionFiles()) {
      for (const name of f.names) byName.set(name, [...(byName.get(name) ?? []), f.file]);
    }
    expect([...byName.values()].filter((where) => where.length > 1)).toEqual([]);
    const elsewhere = files
      .filter(
        (f) =>
          !f.file.startsWith("server/db/functions/") && /create\s+(or\s+replace\s+)?function\s/i.test(f.text),
      )
      .map((f) => f.file);
    expect(elsewhere).toEqual([]);
  });
});
