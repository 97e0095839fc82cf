// Child processes for the bench: servers it waits for, load runs it collects, and the server's memory.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a server process and resolves once `readyUrl` answers 200 (or rejects when it exits first). */
export async function startServer({ args, env, readyUrl, cwd, name, timeoutMs = 60_000 }) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (chunk) => {
    log = (log + chunk).slice(-8000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(readyUrl);
      if (res.ok) return { child, log: () => log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`${name} did not become ready within ${timeoutMs / 1000} s:\n${log}`);
}

export function stopProcess(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Resident memory of a process in MiB, from /proc (Linux); null elsewhere. */
export function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Runs node with the given args and resolves with its exit code and output. */
export function runNode(args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
export function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by each PostgreSQL backend serving database `datname` (same machine only), read with
 * `client`, a connection to another database of the server (its own backend is not counted).
 */
export async function backendCpuSeconds(client, datname) {
  const { rows } = await client.query("select pid from pg_stat_activity where datname = $1", [datname]);
  return new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
}

/**
 * The child of `pid` whose command line contains `match` (Linux), e.g. the server `npm start` spawns
 * beside a build's esbuild service; null when there is none.
 */
export function childPid(pid, match) {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
    for (const child of children.filter(Boolean)) {
      const cmdline = fs.readFileSync(`/proc/${child}/cmdline`, "utf8");
      if (cmdline.includes(match)) return Number(child);
    }
    return null;
  } catch {
    return null;
  }
}
