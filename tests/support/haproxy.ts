import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitFor } from "@/tests/support/server-process";

/** Debian's package (`apt-get install -y haproxy`); HAPROXY names another binary. */
export const HAPROXY_BIN = process.env.HAPROXY ?? "/usr/sbin/haproxy";

export interface Backend {
  name: string;
  port: number;
}

export interface LoadBalancer {
  url: string;
  port: number;
  /** Each backend's state as HAProxy's health checks see it ("UP", "DOWN", "UP 1/2"…), from its CSV stats. */
  backendStatus(): Promise<Record<string, string>>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The production shape in front of the app: round-robin, X-Forwarded-For added, health checks on /healthz,
 * a connection refused by a dead backend redispatched to a live one. Requests that reached a backend are
 * never retried by the balancer (POSTs are not idempotent to it): the client retries with its Idempotency-Key.
 * Each answer names its backend in X-Served-By so tests can see the spread.
 */
export function haproxyConfig(frontendPort: number, statsPort: number, backends: Backend[]): string {
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    // A pushed-updates stream (GET /api/events) is one response that idles between 25 s heartbeats: these
    // inactivity timeouts, not `timeout tunnel` (upgraded connections only), must stay well above it.
    "  timeout client 60s",
    "  timeout server 60s",
    // A health check may take this long: without it HAProxy allows `inter` (300 ms), and on a loaded 2-core
    // machine a busy instance's event loop stalls that long, so healthy instances were marked DOWN (a test
    // then saw no answer from app1 at all, or HAProxy's own 503 for every try). A dead instance still fails
    // its checks at once (connection refused).
    "  timeout check 2s",
    "  retries 3",
    "  option redispatch",
    "  option forwardfor",
    "frontend web",
    `  bind 127.0.0.1:${frontendPort}`,
    "  default_backend apps",
    "backend apps",
    "  balance roundrobin",
    "  option httpchk GET /healthz",
    "  http-check expect status 200",
    "  default-server inter 300ms fastinter 200ms downinter 500ms fall 2 rise 2",
    "  http-response set-header X-Served-By %[srv_name]",
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    "listen stats",
    `  bind 127.0.0.1:${statsPort}`,
    "  stats enable",
    "  stats uri /stats",
    "",
  ].join("\n");
}

function parseStats(csv: string, proxy = "apps"): Record<string, string> {
  const [header, ...rows] = csv.trim().split("\n");
  const columns = header!.replace(/^# /, "").split(",");
  const at = (name: string) => columns.indexOf(name);
  const status: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(",");
    if (cells[at("pxname")] === proxy && !["FRONTEND", "BACKEND"].includes(cells[at("svname")]!)) {
      status[cells[at("svname")]!] = cells[at("status")]!;
    }
  }
  return status;
}

/** Starts HAProxy in the foreground with a generated config and waits until every backend is UP. */
export async function startHaproxy(backends: Backend[], port?: number): Promise<LoadBalancer> {
  const frontendPort = port ?? (await freePort());
  const statsPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-haproxy-"));
  const configFile = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(configFile, haproxyConfig(frontendPort, statsPort, backends));
  const check = spawnSync(HAPROXY_BIN, ["-c", "-q", "-f", configFile], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy refused its config:\n${check.stdout}${check.stderr}`);

  const child: ChildProcess = spawn(HAPROXY_BIN, ["-db", "-f", configFile]);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));

  const backendStatus = async () =>
    parseStats(await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text());
  await waitFor(
    "HAProxy to see every backend UP",
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
      const status = await backendStatus();
      return backends.every((b) => status[b.name] === "UP");
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  ).catch((err) => {
    child.kill("SIGKILL");
    throw err;
  });

  return {
    url: `http://127.0.0.1:${frontendPort}`,
    port: frontendPort,
    backendStatus,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresNode {
  name: string;
  /** PostgreSQL's port. */
  port: number;
  /** Patroni's REST API port: GET /primary answers 200 on the node holding the leader lock only. */
  restPort: number;
}

/**
 * HAProxy in front of a Patroni cluster, as production runs it: TCP to PostgreSQL, each node checked with
 * Patroni's GET /primary, so only the leader is UP and the app keeps one DATABASE_URL. A node marked down has
 * its sessions cut at once (on-marked-down shutdown-sessions): the app's pool never keeps talking to a
 * demoted primary, its next checkout connects to the new one.
 */
export function postgresBalancerConfig(
  frontendPort: number,
  statsPort: number,
  nodes: PostgresNode[],
): string {
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode tcp",
    "  timeout connect 2s",
    // Pooled connections sit idle for a while: the pool, not the balancer, decides when they close.
    "  timeout client 30m",
    "  timeout server 30m",
    "  timeout check 2s",
    "listen postgres",
    `  bind 127.0.0.1:${frontendPort}`,
    "  option httpchk GET /primary",
    "  http-check expect status 200",
    "  default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions",
    ...nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check port ${n.restPort}`),
    "listen stats",
    "  mode http",
    `  bind 127.0.0.1:${statsPort}`,
    "  stats enable",
    "  stats uri /stats",
    "",
  ].join("\n");
}

export interface PostgresBalancer {
  port: number;
  /** The node HAProxy sends connections to (the one in an UP state), or undefined while none or several are. */
  primary(): Promise<string | undefined>;
  output(): string;
  stop(): Promise<void>;
}

/** Starts HAProxy for PostgreSQL and waits until exactly one node (the leader) is UP. */
export async function startPostgresBalancer(nodes: PostgresNode[]): Promise<PostgresBalancer> {
  const frontendPort = await freePort();
  const statsPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-haproxy-pg-"));
  const configFile = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(configFile, postgresBalancerConfig(frontendPort, statsPort, nodes));
  const check = spawnSync(HAPROXY_BIN, ["-c", "-q", "-f", configFile], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`haproxy refused its config:\n${check.stdout}${check.stderr}`);
  const child: ChildProcess = spawn(HAPROXY_BIN, ["-db", "-f", configFile]);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const primary = async () => {
    const status = parseStats(
      await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text(),
      "postgres",
    );
    // Routable is every state that starts with UP: HAProxy starts each checked server UP, and a standby failing
    // its checks stays "UP 1/2" (going down, still given connections) until its second failure. Counting only
    // "UP" once let a first write land on a standby still going down (`cannot execute … in a read-only
    // transaction` at the failover suite's start on a busy machine, where the checks' spacing stretches).
    const routable = Object.entries(status).filter(([, s]) => s.startsWith("UP"));
    return routable.length === 1 ? routable[0]![0] : undefined;
  };
  await waitFor(
    "HAProxy to see one PostgreSQL primary UP",
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
      return primary();
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  ).catch((err) => {
    child.kill("SIGKILL");
    throw err;
  });
  return {
    port: frontendPort,
    primary,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
