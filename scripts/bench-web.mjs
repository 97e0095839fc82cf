#!/usr/bin/env node
// `npm run bench:web`: Lighthouse on the landing page and a signed-in dashboard, mobile and desktop, against
// the built app on embedded defaults. Prints the scores (never fails on them: shared machines are noisy)
// and writes bench/WEB-RESULTS.md.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import * as Lantern from "lighthouse/core/lib/lantern/lantern.js";
import { chromium } from "playwright-core";
import { webBuildIsStale } from "./build-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PASSWORD = "Harbor-Lantern-91-quietly";
const ADMIN_EMAIL = "bench-admin@pillar.test";
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const LIGHTHOUSE_VERSION = JSON.parse(
  fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8"),
).version;
// BENCH_WEB_PAGES=/dashboard BENCH_WEB_FORM_FACTORS=mobile narrows a run while investigating one case.
const PAGES = process.env.BENCH_WEB_PAGES?.split(",") ?? ["/", "/dashboard"];
const FORM_FACTORS = process.env.BENCH_WEB_FORM_FACTORS?.split(",") ?? ["mobile", "desktop"];
// BENCH_WEB_RUNS=5 audits each case five times and records the median run (`npm run bench:lighthouse` does).
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 1));

function buildIfNeeded() {
  if (!webBuildIsStale()) return;
  console.info("▶ building the web app");
  const status = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status;
  if (status !== 0) process.exit(status ?? 1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startApp(dataDir) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dataDir, "server.log"), "a");
  // `npm start`'s own launcher: the production build (compiled server), as a visitor would get it.
  const child = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
    cwd: root,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SMTP_URL: "",
      ADMIN_EMAILS: ADMIN_EMAIL,
      // The seeding admin has no second factor; development allows turning the staff rule off.
      ADMIN_REQUIRE_2FA: "0",
      RATE_LIMIT_SCALE: "20",
      LOG_LEVEL: "warn",
    },
  });
  // A fresh DATA_DIR runs initdb and the migrations first: minutes on a busy 2-core machine.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return { baseUrl, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  console.error(fs.readFileSync(path.join(dataDir, "server.log"), "utf8").slice(-4000));
  throw new Error("The app did not become ready");
}

/** A tiny JSON client holding one session cookie, sending the same-origin headers the CSRF check expects. */
function client(baseUrl) {
  let cookie = "";
  const call = async (method, url, body, headers = {}) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        origin: baseUrl,
        ...(cookie ? { cookie } : {}),
        ...(body && !Buffer.isBuffer(body) ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    const sid = res.headers.getSetCookie().find((c) => /^(__Host-)?sid=[^;]+/.test(c));
    if (sid) cookie = sid.split(";")[0];
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { call, cookie: () => cookie };
}

/** Registers, verifies with the code from the dev mailbox, and signs in. */
async function signedInUser(baseUrl, email, firstName) {
  const api = client(baseUrl);
  const tag = `${firstName.toLowerCase()}_${Date.now() % 100000}`;
  await api.call("POST", "/api/auth/register", {
    email,
    password: PASSWORD,
    firstName,
    lastName: "Bench",
    pillarTag: tag,
    phoneNumber: "+1 212 555 0142",
  });
  const mailbox = await api.call("GET", "/dev/mailbox.json");
  const mail = mailbox.find((m) => m.to.toLowerCase() === email && /\b\d{6}\b/.test(m.text));
  if (!mail) throw new Error(`No verification code for ${email} in the dev mailbox`);
  await api.call("POST", "/api/auth/verify-email", { email, otp: /\b(\d{6})\b/.exec(mail.text)[1] });
  await api.call("POST", "/api/auth/login", { email, password: PASSWORD });
  return api;
}

function png() {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.from([0, 15, 76, 92, 15, 76, 92]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.concat([row, row]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A customer with an approved checking account and some money, so /dashboard shows its real content. */
async function approvedCustomer(baseUrl) {
  const admin = await signedInUser(baseUrl, ADMIN_EMAIL, "Ada");
  const customer = await signedInUser(baseUrl, "bench-customer@pillar.test", "Mona");
  const upload = async () => {
    const { uploadURL, objectPath } = await customer.call("POST", "/api/objects/upload");
    await customer.call("PUT", new URL(uploadURL, baseUrl).pathname, png(), { "content-type": "image/png" });
    return objectPath;
  };
  const { kyc, accountRequest } = await customer.call("POST", "/api/kyc/create", {
    accountType: "personal",
    firstName: "Mona",
    lastName: "Bench",
    street: "5 Wall St",
    city: "New York",
    state: "NY",
    zipCode: "10005",
    ssn: "412-34-5678",
    dateOfBirth: "1988-04-02",
    drivingLicenseFront: await upload(),
    drivingLicenseBack: await upload(),
  });
  await admin.call("PUT", `/api/admin/kyc/${kyc.id}/approve`, { notes: "bench" });
  await admin.call("PUT", `/api/admin/account-requests/${accountRequest.id}`, { status: "approved" });
  await admin.call("POST", "/api/admin/incoming-payments", {
    userId: kyc.userId,
    amount: "950.00", // at or below APPROVAL_THRESHOLD, so it posts without a second staff member
    description: "Payroll",
    status: "completed",
  });
  return customer.cookie();
}

/**
 * One signed-in /dashboard before any audit: the server loads its first-page renderer with the first
 * signed-in page it draws (~0.2 s, once per process), and a server in service has drawn one long before.
 */
async function warmUp(baseUrl, cookie) {
  const res = await fetch(`${baseUrl}/dashboard`, { headers: { cookie: `${cookie}; pillar_signed_in=1` } });
  const html = await res.text();
  if (!res.ok || !html.includes("data-server-rendered")) {
    throw new Error(`The signed-in /dashboard was not drawn by the server (${res.status})`);
  }
}

/**
 * Puts the session and its readable "signed in" hint into Chromium's own cookie jar. A Cookie header alone
 * (Lighthouse's extraHeaders) is not enough: the app reads the hint from document.cookie before it asks
 * /api/auth/user, so without it the dashboard redirects to /auth and the run measures the sign-in page.
 */
async function signInBrowser(port, baseUrl, cookie) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const [name, value] = cookie.split("=");
    await browser.contexts()[0].addCookies([
      { name, value, url: baseUrl, httpOnly: true, sameSite: "Lax" },
      { name: "pillar_signed_in", value: "1", url: baseUrl, sameSite: "Lax" },
    ]);
  } finally {
    await browser.close();
  }
}

/**
 * What holds the simulated LCP (Lighthouse's Lantern model of a phone: 150 ms round trips, 1.6 Mbit/s, 4×
 * CPU): the requests its pessimistic graph waits for, how many bytes they are, and the last ones to finish.
 */
function lcpPath(url) {
  const timings = Lantern.Simulation.Simulator.allNodeTimings.get("pessimisticLargestContentfulPaint");
  if (!timings) return [];
  const origin = new URL(url).origin;
  const nodes = [...timings].map(([node, t]) => ({ node, ...t }));
  const network = nodes.filter((n) => n.node.type === "network");
  const cpuMs = nodes
    .filter((n) => n.node.type === "cpu")
    .reduce((sum, n) => sum + n.endTime - n.startTime, 0);
  const bytes = network.reduce((sum, n) => sum + (n.node.request.transferSize ?? 0), 0);
  const last = network
    .sort((a, b) => b.endTime - a.endTime)
    .slice(0, 3)
    .map((n) => `${n.node.request.url.replace(origin, "")} ends ${Math.round(n.endTime)} ms`);
  return [
    `lcp path: ${network.length} requests, ${Math.round(bytes / 1000)} KB, ${Math.round(cpuMs)} ms of simulated CPU; last: ${last.join(" | ")}`,
  ];
}

async function audit(chrome, url, formFactor, cookie) {
  const flags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices"],
    ...(cookie ? { extraHeaders: { cookie } } : {}),
  };
  const { lhr } = await lighthouse(url, flags, formFactor === "desktop" ? desktopConfig : undefined);
  if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
    throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: not the page meant to be measured`);
  }
  // BENCH_WEB_LHR_DIR=/some/dir keeps each full report (JSON) for digging into the trace's costs.
  if (process.env.BENCH_WEB_LHR_DIR) {
    const name = `${new URL(url).pathname.replace(/\W+/g, "_")}-${formFactor}-${Date.now()}.json`;
    fs.writeFileSync(path.join(process.env.BENCH_WEB_LHR_DIR, name), JSON.stringify(lhr));
  }
  const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const metric = (id) => lhr.audits[id]?.displayValue ?? "-";
  const failing = Object.values(lhr.categories)
    .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]))
    .filter((a) => a && a.score !== null && a.score < 0.9)
    .map((a) => a.id);
  // What to fix, for the accessibility and best-practices audits that fail: a few elements or messages each.
  const details = ["accessibility", "best-practices"]
    .flatMap((c) => lhr.categories[c].auditRefs.map((r) => lhr.audits[r.id]))
    .filter((a) => a && a.score !== null && a.score < 1 && a.details?.items?.length)
    .map(
      (a) =>
        `${a.id}: ${a.details.items
          .slice(0, 3)
          .map(
            (i) =>
              i.node?.snippet ??
              i.description ??
              (i.issueType && `${i.issueType} ${(i.subItems?.items ?? []).map((u) => u.url).join(" ")}`) ??
              i.source?.url ??
              JSON.stringify(i).slice(0, 120),
          )
          .join(" | ")}`,
    );
  // Where the main thread went, when performance misses the goal: the three costliest scripts.
  if (score("performance") < 95) {
    const scripts = (lhr.audits["bootup-time"]?.details?.items ?? [])
      .slice(0, 3)
      .map((i) => `${String(i.url).replace(/^https?:\/\/[^/]+/, "")} ${Math.round(i.total)} ms`);
    if (scripts.length) details.push(`bootup-time: ${scripts.join(" | ")}`);
    details.push(...lcpPath(url));
  }
  return {
    details,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    fcp: metric("first-contentful-paint"),
    lcp: metric("largest-contentful-paint"),
    tbt: metric("total-blocking-time"),
    cls: metric("cumulative-layout-shift"),
    failing: [...new Set(failing)],
  };
}

buildIfNeeded();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-bench-web-"));
const { baseUrl, child } = await startApp(dataDir);
let chrome;
try {
  const cookie = await approvedCustomer(baseUrl);
  await warmUp(baseUrl, cookie);
  chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const rows = [];
  let isSignedIn = false;
  for (const page of PAGES) {
    // Signed-out pages run first (PAGES lists / first); from the first signed-in page on, the browser has the session.
    if (page !== "/" && !isSignedIn) {
      await signInBrowser(chrome.port, baseUrl, cookie);
      isSignedIn = true;
    }
    for (const formFactor of FORM_FACTORS) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await audit(chrome, `${baseUrl}${page}`, formFactor, page === "/" ? undefined : cookie);
        runs.push(r);
        console.info(
          `${page.padEnd(11)} ${formFactor.padEnd(8)} perf ${r.performance}  a11y ${r.accessibility}  best ${r.bestPractices}  FCP ${r.fcp}  LCP ${r.lcp}  TBT ${r.tbt}  CLS ${r.cls}`,
        );
        if (r.failing.length) console.info(`            below 90: ${r.failing.join(", ")}`);
        for (const d of r.details) console.info(`            ${d}`);
      }
      // Lighthouse's own advice for a noisy machine: report the run with the median performance score.
      const median = [...runs].sort((a, b) => a.performance - b.performance)[Math.floor(runs.length / 2)];
      const scores = runs.map((r) => r.performance);
      rows.push({ page, formFactor, ...median, scores });
      if (RUNS > 1)
        console.info(
          `${page.padEnd(11)} ${formFactor.padEnd(8)} runs ${scores.join(", ")}: median ${median.performance}`,
        );
    }
  }
  const low = rows.filter((r) => r.performance < 95 || r.accessibility < 95);
  const md = [
    "# Web benchmark (Lighthouse)",
    "",
    `Generated by \`npm run bench:web\` on ${new Date().toISOString()}: Lighthouse ${LIGHTHOUSE_VERSION},`,
    `headless Chromium (${CHROME_PATH}), ${os.cpus().length} CPU(s), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}. The built app on embedded defaults (PGlite, dev mailbox); /dashboard is a signed-in`,
    "customer with an approved checking account; the server has drawn one dashboard before the audits (its",
    "renderer loads with the first). Mobile uses Lighthouse's simulated slow 4G and 4× CPU slowdown; with",
    "BENCH_WEB_RUNS > 1 the row is the run with the median performance score.",
    "Goal: performance and accessibility ≥ 95 (printed, not enforced: a shared machine is noisy).",
    "",
    "| page | form factor | performance | accessibility | best practices | FCP | LCP | TBT | CLS |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r.formFactor} | ${r.scores.length > 1 ? `${r.performance} (median of ${r.scores.join(", ")})` : r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.fcp} | ${r.lcp} | ${r.tbt} | ${r.cls} |`,
    ),
    "",
    "Audits scoring below 90:",
    "",
    ...rows.map((r) => `- ${r.page} ${r.formFactor}: ${r.failing.join(", ") || "none"}`),
    "",
  ].join("\n");
  // A narrowed run (bench:lighthouse, or one page while investigating) leaves the full table alone.
  if (!process.env.BENCH_WEB_PAGES && !process.env.BENCH_WEB_FORM_FACTORS) {
    fs.mkdirSync(path.join(root, "bench"), { recursive: true });
    fs.writeFileSync(path.join(root, "bench/WEB-RESULTS.md"), md);
    console.info(
      `\nwrote bench/WEB-RESULTS.md${low.length ? ` (${low.length} run(s) under the 95 goal)` : ""}`,
    );
  }
} finally {
  await chrome?.kill();
  child.kill("SIGTERM");
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
