// HAProxy in front of one instance, as production runs it (docs/operations.md): browsers speak HTTP/2 to the
// balancer, which reuses its HTTP/1.1 connections to the instance. Debian's package; HAPROXY names another.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http2 from "node:http2";
import path from "node:path";
import { freePort } from "./processes.mjs";

export const HAPROXY_BIN = process.env.HAPROXY ?? "/usr/sbin/haproxy";

export const haproxyAvailable = () => fs.existsSync(HAPROXY_BIN);

/**
 * The balancer's configuration: the frontend takes HTTP/2 without TLS (prior knowledge: the bench's clients
 * stand for browsers behind TLS termination), `http-reuse always` lets any request use any idle server
 * connection (the app keeps no state on a connection), and the inactivity timeouts stay above the streams'
 * 25 s heartbeat as the cluster suite's do.
 */
function config({ port, serverPort, maxconn }) {
  return [
    "global",
    `  maxconn ${maxconn}`,
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout check 2s",
    "  option forwardfor",
    "frontend web",
    `  bind 127.0.0.1:${port} proto h2`,
    `  maxconn ${maxconn}`,
    "  default_backend apps",
    "backend apps",
    "  http-reuse always",
    "  option httpchk GET /healthz",
    `  server app1 127.0.0.1:${serverPort} check inter 2s`,
    "",
  ].join("\n");
}

/** One GET over HTTP/2 prior knowledge: the status, or null when nothing answers. */
function statusOf(url) {
  return new Promise((resolve) => {
    const session = http2.connect(url);
    session.on("error", () => resolve(null));
    const req = session.request({ ":path": "/readyz" }, { endStream: true });
    req.on("response", (h) => {
      resolve(h[":status"]);
      session.close();
    });
    req.on("error", () => {
      resolve(null);
      session.destroy();
    });
    req.resume();
  });
}

/**
 * The connections HAProxy may hold: it needs two descriptors for each (the browser's and, while a request or
 * stream is open, the instance's) and may not raise its limit past the hard one this process has.
 */
export function haproxyMaxconn() {
  const out = spawnSync("sh", ["-c", "ulimit -Hn"], { encoding: "utf8" }).stdout.trim();
  const limit = out === "unlimited" ? 1_048_576 : Number(out) || 1024;
  return Math.floor((limit - 100) / 2);
}

/** Starts HAProxy before `serverPort` and resolves once a request through it reaches the instance. */
export async function startHaproxy({ serverPort, dir, maxconn = haproxyMaxconn() }) {
  const port = await freePort();
  const file = path.join(dir, `haproxy-${port}.cfg`);
  fs.writeFileSync(file, config({ port, serverPort, maxconn }));
  const check = spawnSync(HAPROXY_BIN, ["-c", "-q", "-f", file], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy refused its config:\n${check.stdout}${check.stderr}`);
  const child = spawn(HAPROXY_BIN, ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (c) => (log = (log + c).slice(-4000)));
  child.stderr.on("data", (c) => (log = (log + c).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${log}`);
    if ((await statusOf(url)) === 200) return { child, url, maxconn };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`haproxy did not pass a request to the instance within 20 s:\n${log}`);
}
