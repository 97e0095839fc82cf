import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { programArgs } from "@/tests/support/program";

const root = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a truthy value; the timeout error names what was awaited. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  { timeoutMs = 30_000, intervalMs = 200 } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last})` : ""}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM and wait; SIGKILL if it does not stop in time. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown hooks, no draining, as a crash or an OOM kill would do. */
  crash(): Promise<void>;
}

/**
 * Runs `node --import tsx server/main.ts` as its own process on a free port and waits for /readyz
 * (or only for /healthz when `waitUntil` is "live", e.g. when the database is meant to be down).
 */
export async function startServer(
  env: Record<string, string>,
  {
    waitUntil = "ready" as "ready" | "live",
    timeoutMs = 90_000,
    fdLimit,
    port: fixedPort,
  }: { waitUntil?: "ready" | "live"; timeoutMs?: number; fdLimit?: number; port?: number } = {},
): Promise<ServerProcess> {
  // `port`: a restart where the balancer expects the instance (tests/support/cluster.ts).
  const port = fixedPort ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-faults-"));
  const args = programArgs("server/main.ts");
  // `fdLimit`: the process starts with that few file descriptors (soft and hard), as a small container might.
  const [command, commandArgs] = fdLimit
    ? ["/bin/sh", ["-c", `ulimit -n ${fdLimit} && exec "$0" "$@"`, process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(command as string, commandArgs as string[], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SMTP_URL: "",
      ...env,
    },
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const probe = waitUntil === "ready" ? "/readyz" : "/healthz";
  await waitFor(
    `the server to answer ${probe}`,
    async () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the server exited early (${child.exitCode ?? child.signalCode}):\n${output}`);
      return (await fetch(`${url}${probe}`)).ok;
    },
    { timeoutMs, intervalMs: 250 },
  ).catch((err) => {
    child.kill("SIGKILL");
    throw err;
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    port,
    child,
    output: () => output,
    exited,
    async stop() {
      if (gone()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
    async crash() {
      if (gone()) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
