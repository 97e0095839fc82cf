import { randomBytes } from "node:crypto";
import { type LoadBalancer, startHaproxy } from "@/tests/support/haproxy";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { freePort, type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";
import { type SmtpSink, startSmtpSink } from "@/tests/support/smtp-sink";
import { startTcpProxy, type TcpProxy } from "@/tests/support/tcp-proxy";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface Instance {
  /** HAProxy's name for it (X-Served-By). */
  name: string;
  server: ServerProcess;
}

export interface Cluster {
  scratch: ScratchDatabase;
  sink: SmtpSink;
  /** Sits between every instance and the machine's Redis, so a test can take Redis away from all of them. */
  redis: TcpProxy;
  redisKeyPrefix: string;
  instances: Instance[];
  lb: LoadBalancer;
  /** The cookie header for a session token, under production's cookie name. */
  cookieFor(token: string): string;
  /**
   * Brings the cluster back to its starting state, for a test's beforeEach: every instance that was killed or
   * stopped is started again on its port (same settings), Redis passes traffic again, and HAProxy sees every
   * instance UP. A test never depends on what an earlier one did to the cluster.
   */
  ensureHealthy(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * N app processes in production mode (real secrets, secure cookies, second factor required for staff) on one
 * scratch PostgreSQL database, one Redis (a key prefix of their own) and a real SMTP sink, behind HAProxy.
 * They trust X-Forwarded-For from 127.0.0.1 only: the balancer's address on this machine.
 */
export async function startCluster(
  size = 3,
  extraEnv: Record<string, string> = {},
  // The PostgreSQL server the scratch database is made on: the failover suite's Patroni cluster behind HAProxy.
  { databaseServerUrl = process.env.DATABASE_URL! }: { databaseServerUrl?: string } = {},
): Promise<Cluster> {
  const scratch = await createScratchDatabase(databaseServerUrl);
  const sink = await startSmtpSink();
  const { hostname, port } = new URL(REDIS_URL);
  const redis = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
  const redisKeyPrefix = `cluster:${randomBytes(6).toString("hex")}:`;
  const lbPort = await freePort();
  const env = {
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    DATA_KEY: randomBytes(32).toString("hex"),
    DATABASE_URL: scratch.url,
    DATABASE_POOL_SIZE: "5",
    REDIS_URL: `redis://127.0.0.1:${redis.port}`,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    TRUST_PROXY: "127.0.0.1",
    // The customer-facing origin is the balancer's (links in mail, passkey relying party).
    PUBLIC_URL: `http://localhost:${lbPort}`,
    SMTP_URL: sink.url,
    METRICS_TOKEN: randomBytes(16).toString("hex"),
    ...extraEnv,
  };
  const started: ServerProcess[] = [];
  let instances: Instance[] = [];
  let lb: LoadBalancer | undefined;
  const stopAll = async () => {
    await lb?.stop();
    // The instances as they are now (a restarted one replaced its first process), and any not yet named.
    await Promise.all([...new Set([...started, ...instances.map((x) => x.server)])].map((s) => s.stop()));
    await redis.close();
    await sink.close();
    await scratch.drop();
  };
  try {
    // One at a time: all three running migrations and tsx compiles at once only slows a 2-core machine.
    // Each instance names its PostgreSQL connections (node-postgres reads PGAPPNAME), so a test can tell from
    // pg_stat_activity which instance holds a transaction open (the jobs-room kill test).
    const envOf = (i: number) => ({ ...env, PGAPPNAME: `pillar-app${i + 1}` });
    for (let i = 0; i < size; i++) started.push(await startServer(envOf(i)));
    instances = started.map((server, i) => ({ name: `app${i + 1}`, server }));
    const balancer = await startHaproxy(
      instances.map((x) => ({ name: x.name, port: x.server.port })),
      lbPort,
    );
    lb = balancer;
    const ensureHealthy = async () => {
      await redis.restore();
      for (const [i, x] of instances.entries()) {
        const { exitCode, signalCode } = x.server.child;
        if (exitCode === null && signalCode === null) continue;
        await x.server.exited;
        x.server = await startServer(envOf(i), { port: x.server.port });
      }
      await waitFor(
        "HAProxy to see every instance UP",
        async () => {
          const status = await balancer.backendStatus();
          return instances.every((x) => status[x.name] === "UP");
        },
        { timeoutMs: 20_000, intervalMs: 100 },
      );
    };
    return {
      scratch,
      sink,
      redis,
      redisKeyPrefix,
      instances,
      lb,
      cookieFor: (token) => `__Host-sid=${token}`,
      ensureHealthy,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The token inside a fixture's `sid=…` cookie (tests/support/users.ts writes the development name). */
export function tokenOf(cookie: string): string {
  return cookie.replace(/^(__Host-)?sid=/, "");
}
