/**
 * Writes what is generated from the endpoint contracts and the import rules (decision 075): the staff role table
 * the admin web reads without loading a schema, docs/endpoints.md, and the area map and rules table in
 * docs/architecture.md. `npm run contract:generate` after adding or changing an endpoint, an area or a rule; a
 * unit test (contract/endpoints.test.ts) fails while a file in the repository differs from what this writes.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { type Endpoint, isStaffAccess } from "@/contract/endpoint";
import { ENDPOINTS, ENDPOINTS_BY_AREA } from "@/contract/endpoints";

export const GENERATED_ROLES_FILE = "contract/admin-route-roles.generated.ts";
export const ENDPOINTS_DOC = "docs/endpoints.md";
export const ARCHITECTURE_DOC = "docs/architecture.md";

interface DepcruiseConfig {
  forbidden: { name: string; comment?: string }[];
  areaDeps: { server: Record<string, string[]>; web: Record<string, string[]> };
}
const depcruise = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as DepcruiseConfig;

/** What each area holds, in a line: the one hand-written column of the area map. */
export const AREA_PURPOSE: Readonly<Record<string, string>> = {
  accounts:
    "account summary, transactions (recent, list, CSV), the dashboard and analytics pages, the send-money and analytics gates",
  admin: "user management for staff: stats, users, delete, test e-mails (the web's side is `users`)",
  approvals: "maker-checker: the approval queue and a second staff member's decision",
  audit: 'the audit log search and CSV (staff), and the customer\'s "Access to your data"',
  auth: "sign-up, e-mail codes, sign-in, passwords, sessions, second factors, step-up, phone; the Settings page",
  "back-office": "the back office's shell: the admin page, its stat cards and tab strip, the e-mail test tab",
  chat: "support chat for customers and the staff inbox",
  closure: "closing an account, by the customer or by compliance (decision 059)",
  compliance: "sanctions screening: lists, cases, decisions, SAR and OFAC reports (decision 024)",
  credits: "money staff put in: incoming payments, admin transactions and balance adjustments",
  content: "dashboard content per customer, and its editor for staff",
  "dev-mailbox": "the development mailbox (`/dev/mailbox`), outside production",
  events: "the live updates stream (decision 034)",
  health: "`/healthz`, `/readyz`",
  kyc: "identity check, checking-account requests, KYC review, SSN reveal, onboarding state",
  marketing: "the signed-out pages: landing, about, features, trust, not found",
  monitoring: "transaction monitoring's alerts (decision 031)",
  notifications: "the customer's notices and their preferences",
  objects: "uploads and stored files (`/api/objects`, `/objects/*`)",
  recipients: "saved recipients, address checks",
  savings: "the savings account, interest, rates and finance's Savings tab (decisions 068-072)",
  schedules: "scheduled and recurring transfers to saved recipients (decision 036)",
  security: '"This wasn\'t me": freeze links and account freezes; known devices',
  settlement:
    "settlement on chain: deposits, payouts, reconciliation, the treasury (decisions 028, 038, 060)",
  staff: "staff members and their roles (owners)",
  statements: "monthly PDF statements and Form 1099-INT",
  "tag-payments":
    "paying another customer by $tag, money requests and blocked requesters (decisions 035, 037, 050)",
  transfers: "outgoing USDC transfers, own limits, receipts, the staff review",
  users: "the back office's Users tab (the server's side is `admin`)",
};

function readdir(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** Every area: a folder under server/features or web/features, or a row of either import table. */
function areas(): string[] {
  const { server, web } = depcruise.areaDeps;
  return [
    ...new Set([
      ...Object.keys(server),
      ...Object.keys(web),
      ...readdir("server/features"),
      ...readdir("web/features"),
    ]),
  ].sort();
}

const code = (text: string) => `\`${text}\``;
const list = (items: readonly string[] | undefined) => (items?.length ? items.join(", ") : "—");

/** The generated role table's source. */
export function generatedRolesSource(): string {
  const rows = Object.entries(ENDPOINTS)
    .flatMap(([key, endpoint]) =>
      isStaffAccess(endpoint.access)
        ? [`  ${JSON.stringify(key)}: [${endpoint.access.map((role) => JSON.stringify(role)).join(", ")}],`]
        : [],
    )
    .sort();
  return [
    "// Generated from the endpoint contracts by `npm run contract:generate` (scripts/contract-generate.ts): do not edit.",
    'import type { StaffRole } from "@/contract/staff";',
    "",
    "/** The staff roles each contract-declared /api/admin endpoint names (owners may call every one). */",
    "export const CONTRACT_ADMIN_ROUTE_ROLES = {",
    ...rows,
    "} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;",
    "",
  ].join("\n");
}

function accessOf(endpoint: Endpoint): string {
  if (endpoint.access === "public") return "anyone";
  if (endpoint.access === "user") return "signed in";
  return `staff: ${[...endpoint.access, ...(endpoint.access.includes("owner") ? [] : ["owner"])].join(", ")}`;
}

/** docs/endpoints.md: every endpoint by area, as its contract declares it. */
export function endpointsDoc(): string {
  const lines = [
    "# Endpoints",
    "",
    "<!-- Generated from the endpoint contracts by `npm run contract:generate`: do not edit. -->",
    "",
    "Every `/api` endpoint declared by contract (decision 075), by the area that serves it: who may call it, what",
    "it reads, what it needs besides (a fresh second factor, an Idempotency-Key, a limit per minute) and what its",
    "service can refuse with beyond what those imply. The schemas are in the contract files under `contract/`;",
    "`GET /api/docs` serves them as OpenAPI (the staff part to staff only).",
    "",
  ];
  for (const [area, table] of Object.entries(ENDPOINTS_BY_AREA).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`## ${area}`, "", "| endpoint | access | input | needs | refusals |", "|---|---|---|---|---|");
    for (const [key, endpoint] of Object.entries(table as Record<string, Endpoint>)) {
      const input = (["params", "query", "body"] as const).filter((part) => endpoint[part]);
      const needs = [
        endpoint.stepUp ? "step-up" : "",
        endpoint.idempotent ? "Idempotency-Key" : "",
        endpoint.limit ? `${endpoint.limit.perMinute}/min per ${endpoint.limit.by}` : "",
        endpoint.file ? `answers ${endpoint.file}` : "",
      ].filter(Boolean);
      lines.push(
        `| ${code(key)} | ${accessOf(endpoint)} | ${list(input)} | ${list(needs)} | ${list((endpoint.errors ?? []).map(code))} |`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

const START = (name: string) => `<!-- generated: ${name} (npm run contract:generate) -->`;
const END = "<!-- end generated -->";

function areaMap(): string {
  const { server, web } = depcruise.areaDeps;
  const serverAreas = new Set(readdir("server/features"));
  const webAreas = new Set(readdir("web/features"));
  const rows = areas().map((area) => {
    const count = Object.keys((ENDPOINTS_BY_AREA as Record<string, object>)[area] ?? {}).length;
    return `| ${area} | ${serverAreas.has(area) ? code(`server/features/${area}`) : "—"} | ${
      webAreas.has(area) ? code(`web/features/${area}`) : "—"
    } | ${serverAreas.has(area) ? list(server[area]) : "—"} | ${webAreas.has(area) ? list(web[area]) : "—"} | ${
      count ? `[${count}](endpoints.md#${area})` : "—"
    } | ${AREA_PURPOSE[area] ?? ""} |`;
  });
  return [
    "| area | server | web | server imports | web imports | endpoints | holds |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function rulesTable(): string {
  const seen = new Set<string>();
  const rows: string[] = [];
  for (const rule of depcruise.forbidden) {
    const name = rule.name.replace(/^(server|web)-area-deps-.*$/, "$1-area-deps-<area>");
    if (seen.has(name)) continue;
    seen.add(name);
    const comment = (rule.comment ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
    rows.push(`| ${code(name)} | ${comment} |`);
  }
  return ["| rule (`.dependency-cruiser.cjs`) | what it says |", "|---|---|", ...rows].join("\n");
}

function replaceSection(text: string, name: string, body: string): string {
  const start = text.indexOf(START(name));
  const end = text.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`${ARCHITECTURE_DOC} has no generated section "${name}"`);
  return `${text.slice(0, start)}${START(name)}\n\n${body}\n\n${text.slice(end)}`;
}

/** docs/architecture.md with its generated sections rewritten. */
export function architectureDoc(current = readFileSync(ARCHITECTURE_DOC, "utf8")): string {
  return replaceSection(replaceSection(current, "area map", areaMap()), "import rules", rulesTable());
}

/** Every generated file and what it should hold. */
export function generatedFiles(): Record<string, string> {
  return {
    [GENERATED_ROLES_FILE]: generatedRolesSource(),
    [ENDPOINTS_DOC]: endpointsDoc(),
    [ARCHITECTURE_DOC]: architectureDoc(),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const [file, text] of Object.entries(generatedFiles())) {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
