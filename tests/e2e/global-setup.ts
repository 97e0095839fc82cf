import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import type { TestProject } from "vitest/node";
import { programArgs } from "@/tests/support/program";
import { e2eWorkers } from "@/tests/support/workers";

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per worker; a journey file uses its worker's (tests/e2e/support/server.ts). */
    servers: Array<{ baseUrl: string; mailDir: string; databaseUrl: string }>;
    adminEmail: string;
    /** A second staff member (owner) for maker-checker journeys. */
    checkerEmail: string;
  }
}

export const E2E_ADMIN_EMAIL = "admin@e2e.pillar.test";
export const E2E_CHECKER_EMAIL = "checker@e2e.pillar.test";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** A real SMTP server on loopback; each received message is written to mailDir as a .eml file. */
async function startMailSink(mailDir: string): Promise<{ port: number; close(): Promise<void> }> {
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        const file = path.join(mailDir, `${Date.now()}-${++counter}.eml`);
        fs.writeFileSync(file, `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString("utf8")}`);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function waitForReady(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app exited early with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("The app did not become ready in time");
}

/** One e2e server: its address, its SMTP sink's folder and its PostgreSQL database ("" on embedded PGlite). */
export interface E2eServer {
  baseUrl: string;
  mailDir: string;
  databaseUrl: string;
}

/** Starts the app as a real process on a free port, with a fresh database and a real SMTP sink. */
async function startServer(root: string): Promise<E2eServer & { stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-e2e-"));
  const mailDir = path.join(dataDir, "mail");
  fs.mkdirSync(mailDir);
  const sink = await startMailSink(mailDir);

  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `pillar_e2e_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, programArgs("server/main.ts"), {
    cwd: root,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? "",
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: "Pillar <no-reply@pillar.test>",
      ADMIN_EMAILS: `${E2E_ADMIN_EMAIL},${E2E_CHECKER_EMAIL}`,
      RATE_LIMIT_SCALE: "20",
      LOG_LEVEL: "info",
    },
  });
  try {
    await waitForReady(baseUrl, child);
  } catch (err) {
    child.kill("SIGKILL");
    console.error(fs.readFileSync(logFile, "utf8").slice(-4000));
    throw err;
  }

  return {
    baseUrl,
    mailDir,
    databaseUrl: databaseUrl ?? "",
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      await sink.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts one server per worker (e2eWorkers()); a journey finds its own with `e2eServer()`. */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "../..");
  const started = await Promise.allSettled(Array.from({ length: e2eWorkers() }, () => startServer(root)));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }

  project.provide(
    "servers",
    servers.map(({ baseUrl, mailDir, databaseUrl }) => ({ baseUrl, mailDir, databaseUrl })),
  );
  project.provide("adminEmail", E2E_ADMIN_EMAIL);
  project.provide("checkerEmail", E2E_CHECKER_EMAIL);

  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
