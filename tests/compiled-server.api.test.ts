import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer, serverOutDir } from "@/scripts/build-server.mjs";
import { BUILT_RENDERER_FILE } from "@/server/lib/first-page-renderer";
import { freePort, waitFor } from "@/tests/support/server-process";
import { sessionCookieFrom, signupBody, TEST_PASSWORD } from "@/tests/support/users";

// What `npm start` and the Docker image run: the esbuild output under plain node, no tsx loader anywhere.
const root = path.resolve(import.meta.dirname, "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-compiled-"));
let child: ChildProcess | undefined;
let output = "";
let url = "";

beforeAll(async () => {
  // CI builds once (.ci/run sets PILLAR_BUILT=1 after `npm run build`); both of its API runs use that output.
  if (process.env.PILLAR_BUILT === "1") {
    if (!fs.existsSync(path.join(serverOutDir, "main.js")))
      throw new Error("PILLAR_BUILT=1 but dist/server/main.js is missing: run npm run build first.");
  } else {
    await buildServer({ logLevel: "silent" });
  }
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [path.join(serverOutDir, "main.js")], {
    cwd: os.tmpdir(), // runtime files must be found from the bundle's location, not the working directory
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SMTP_URL: "",
    },
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  await waitFor(
    "the compiled server to answer /readyz",
    async () => {
      if (child?.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
      return (await fetch(`${url}/readyz`)).ok;
    },
    { timeoutMs: 90_000, intervalMs: 250 },
  );
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the compiled server (dist/server/main.js)", () => {
  it("bundles our code with the @/ alias resolved and leaves packages as imports", () => {
    // main.js and the chunks it shares with the CLI (esbuild splits what both import).
    const files = [
      path.join(serverOutDir, "main.js"),
      ...fs
        .readdirSync(path.join(serverOutDir, "chunks"))
        .filter((f) => f.endsWith(".js"))
        .map((f) => path.join(serverOutDir, "chunks", f)),
    ];
    const code = files.map((f) => fs.readFileSync(f, "utf8"));
    for (const text of code) expect(text).not.toMatch(/from "@\//);
    expect(code.some((text) => /from "fastify"/.test(text))).toBe(true);
  });

  it("names our TypeScript in its stack traces, through our own source maps only", async () => {
    // A DATA_DIR that is a file: the server fails at start and prints the error's stack (server/serve.ts).
    const notADirectory = path.join(dataDir, "a-file");
    fs.writeFileSync(notADirectory, "");
    const failed = spawn(process.execPath, [path.join(serverOutDir, "main.js")], {
      cwd: os.tmpdir(),
      env: { ...process.env, NODE_OPTIONS: "", NODE_ENV: "test", DATABASE_URL: "", DATA_DIR: notADirectory },
    });
    let printed = "";
    failed.stderr?.on("data", (d) => (printed += d));
    failed.stdout?.on("data", (d) => (printed += d));
    const code = await new Promise((resolve) => failed.on("exit", resolve));
    expect(code, printed).toBe(1);
    expect(printed).toMatch(/at loadConfig \(.*server\/config\.ts:\d+:\d+\)/);
    // Only the entry's own frame stays in the bundle (its map is not read: the setting is its first line).
    expect(printed).not.toMatch(/dist\/server\/chunks\//);
  });

  it("applies the migrations from the source tree and serves the API on them", async () => {
    const readyz = await fetch(`${url}/readyz`);
    expect(readyz.status).toBe(200);
    // Registration writes users, sessions and the ledger's accounts: every table the migrations create.
    const register = await fetch(`${url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(signupBody()),
    });
    expect(register.status, output).toBe(200);
    expect((await fetch(`${url}/api/auth/user`)).status).toBe(401);
  });

  it("serves the app shell from dist/web at the project root", async () => {
    const index = path.join(root, "dist/web/index.html");
    // A page with no first-page preloads (server/lib/spa.ts) gets the built file byte for byte.
    const page = await fetch(`${url}/about`);
    if (fs.existsSync(index)) {
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(fs.readFileSync(index, "utf8"));
    } else {
      // Without a web build the server still resolves the folder and says how to build it.
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("npm run build");
    }
  });

  it("holds none of the web's code: the server never imports it (decision 022)", () => {
    const maps = fs
      .readdirSync(serverOutDir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js.map"));
    const sources = maps.flatMap(
      (map) =>
        (JSON.parse(fs.readFileSync(path.join(serverOutDir, map), "utf8")) as { sources: string[] }).sources,
    );
    expect(sources.some((source) => source.endsWith("server/app.ts"))).toBe(true);
    expect(sources.filter((source) => /(^|\/)web\//.test(source))).toEqual([]);
  });

  it("draws a signed-in dashboard with the web's own renderer build, loaded by path", async () => {
    const body = signupBody({ firstName: "Compiled" });
    const post = (route: string, json: unknown, cookie = "") =>
      fetch(`${url}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify(json),
      });
    expect((await post("/api/auth/register", body)).status).toBe(200);
    const mailbox = (await (await fetch(`${url}/dev/mailbox.json`)).json()) as { to: string; text: string }[];
    const code = mailbox.find((mail) => mail.to === body.email)?.text.match(/\b(\d{6})\b/)?.[1];
    expect((await post("/api/auth/verify-email", { email: body.email, otp: code })).status).toBe(200);
    const login = await post("/api/auth/login", { email: body.email, password: TEST_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = `${sessionCookieFrom(login.headers.getSetCookie())}; pillar_signed_in=1`;

    const page = await fetch(`${url}/dashboard`, { headers: { cookie } });
    if (!fs.existsSync(path.join(root, "dist/web/index.html"))) {
      expect(page.status).toBe(503);
      return;
    }
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toMatch(/<script type="application\/json" id="first-reads" data-events-from="\d+">/);
    if (fs.existsSync(BUILT_RENDERER_FILE)) {
      expect(html).toContain('<div id="root" data-server-rendered>');
      expect(html).toContain('Hello, <span class="font-semibold text-ink">Compiled</span>');
    } else {
      // Without `vite build --ssr` the server draws nothing and says why; the browser draws the page.
      expect(html).not.toContain("data-server-rendered");
      expect(output).toContain("npm run build");
    }
  });
});
