#!/usr/bin/env node
// Prints the gzip size of the JavaScript each route needs on first load, and fails the build over a budget
// or when a signed-out page would download signed-in code or the chart library, or a non-admin page admin code.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { findAdminCode, staticClosure } from "./bundle-checks.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "dist/web");
const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8"));
// Written by vite.config.ts's chunk-modules plugin: what each output file contains.
const chunkModules = JSON.parse(fs.readFileSync(path.join(outDir, ".vite/chunk-modules.json"), "utf8"));

const KB = 1000;
const ROUTES = [
  {
    route: "/ (landing)",
    source: "features/marketing/landing-page.tsx",
    budget: 120 * KB,
    zodFree: true,
    signedOut: true,
  },
  {
    route: "/about",
    source: "features/marketing/about-page.tsx",
    budget: 130 * KB,
    zodFree: true,
    signedOut: true,
  },
  // Radix tabs and switches for the demos cost ~12 KB more than the landing page. The entry every page loads
  // grew ~1 KB when the dashboard began to arrive drawn by the server (hydration, the page's answers seeded,
  // device cookies, tailwind-merge's trimmed class groups): 130 → 132 KB. The notification bell on the money
  // screens (decision 034) changed which pages share lucide's Bell, and the icon groups (vite.config.ts) fell
  // out differently: 131.7 → 132.4 KB with no code of this page's own added, at every merge threshold tried
  // from 1.2 to 2 KB (132.1–133.2): 132 → 133 KB. The typed endpoint client in the entry (callEndpoint and hrefOf,
  // decision 075) added 0.2 KB to every page, this one at 133.0 before it: 133 → 134 KB.
  {
    route: "/features",
    source: "features/marketing/features-page.tsx",
    budget: 134 * KB,
    zodFree: true,
    signedOut: true,
  },
  { route: "/auth", source: "features/auth/auth-page.tsx", budget: 140 * KB, zodFree: true, signedOut: true },
  {
    route: "/forgot-password",
    source: "features/auth/forgot-password-page.tsx",
    budget: 140 * KB,
    zodFree: true,
    signedOut: true,
  },
  {
    route: "(not found)",
    source: "features/marketing/not-found-page.tsx",
    budget: 120 * KB,
    zodFree: true,
    signedOut: true,
  },
  { route: "/dashboard", source: "features/accounts/dashboard-page.tsx", budget: 140 * KB, zodFree: true },
  { route: "/settings", source: "features/auth/settings/settings-page.tsx", budget: 200 * KB },
  { route: "/apply-checking", source: "features/kyc/apply-checking-page.tsx", budget: 200 * KB },
  { route: "/send-money", source: "features/transfers/send-money-page.tsx", budget: 200 * KB },
  { route: "/pay", source: "features/tag-payments/pay-by-tag-page.tsx", budget: 200 * KB },
  { route: "/savings", source: "features/savings/savings-page.tsx", budget: 200 * KB },
  { route: "/analytics", source: "features/accounts/analytics-page.tsx", budget: 350 * KB, zodFree: true },
  { route: "/contact", source: "features/chat/contact-page.tsx", budget: 200 * KB },
  { route: "/admin", source: "features/back-office/admin-page.tsx", budget: 300 * KB, admin: true },
  {
    route: "/dashboard-edit/:id",
    source: "features/content/admin/dashboard-edit-page.tsx",
    budget: 300 * KB,
    admin: true,
  },
];
// Every web feature a signed-out visitor must not download (marketing and auth are theirs, except auth's
// Settings page), and every area's back office.
const SIGNED_IN_SOURCES =
  /^features\/((accounts|security|transfers|tag-payments|recipients|statements|savings|back-office|users|kyc|chat|content|approvals|audit|payments|staff)\/|auth\/settings\/)/;
const ZOD_MODULE = /^node_modules\/zod\//;

const gzipCache = new Map();
function gzipSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(fs.readFileSync(path.join(outDir, file))).length);
  return gzipCache.get(file);
}

let failures = 0;
const rows = [];
for (const { route, source, budget, signedOut, admin, zodFree } of ROUTES) {
  if (!manifest[source]) {
    // A page missing from the manifest would silently skip every check below.
    rows.push([route, "-", `${(budget / KB).toFixed(0)} KB`, `no chunk for ${source}`]);
    failures += 1;
    continue;
  }
  const keys = staticClosure(manifest, ["index.html", source]);
  const files = [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith(".js"));
  const bytes = files.reduce((sum, f) => sum + gzipSize(f), 0);
  const problems = [];
  if (bytes > budget) problems.push(`over budget ${(budget / KB).toFixed(0)} KB`);
  if (!admin) {
    const adminCode = findAdminCode(manifest, chunkModules, source);
    if (adminCode.length) problems.push(`loads admin code: ${adminCode.join(", ")}`);
  }
  // zod is ~26 KB gzip plus its schema building at start; the pages a visitor lands on first do without it.
  if (zodFree && files.some((f) => (chunkModules[f] ?? []).some((m) => ZOD_MODULE.test(m))))
    problems.push("loads zod");
  if (signedOut) {
    const leaked = [...keys].filter((k) => SIGNED_IN_SOURCES.test(k));
    if (leaked.length) problems.push(`loads signed-in code: ${leaked.join(", ")}`);
    if (files.some((f) => fs.readFileSync(path.join(outDir, f), "utf8").includes("recharts-wrapper")))
      problems.push("loads the chart library");
  }
  failures += problems.length ? 1 : 0;
  rows.push([
    route,
    `${(bytes / KB).toFixed(1)} KB`,
    `${(budget / KB).toFixed(0)} KB`,
    problems.join("; ") || "ok",
  ]);
}

const widths = [0, 1, 2, 3].map((i) =>
  Math.max(...[["route", "initial JS (gzip)", "budget", "check"], ...rows].map((r) => r[i].length)),
);
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join("  ");
console.info(`\n${line(["route", "initial JS (gzip)", "budget", "check"])}`);
for (const r of rows) console.info(line(r));
if (failures) {
  console.error(`\n${failures} route(s) break the front-end budget.`);
  process.exit(1);
}
