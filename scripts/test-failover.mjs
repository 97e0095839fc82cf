#!/usr/bin/env node
// `npm run test:failover`: three PostgreSQL nodes under Patroni (etcd, synchronous standbys) behind HAProxy,
// archiving to pgBackRest, three app instances behind another HAProxy, and five faults under a transfer load
// (primary killed, primary frozen, primary partitioned, standby killed, whole cluster crashed), each followed
// by the bank check; then a point-in-time restore (tests/failover). Starts everything itself in a temp dir on
// free loopback ports and never touches the machine's own PostgreSQL. Needs Debian's patroni,
// python3-etcd, etcd-server, pgbackrest, haproxy, nftables (as root) and a PostgreSQL server, and Redis on
// TEST_REDIS_URL; without them it skips with the reason, unless FAILOVER=required (CI).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const haproxy = process.env.HAPROXY ?? "/usr/sbin/haproxy";
const patroni = process.env.PATRONI ?? "/usr/bin/patroni";
const pgbackrest = process.env.PGBACKREST ?? "/usr/bin/pgbackrest";
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.setTimeout(2000, () => resolve(socket.destroy() && false));
    socket.once("connect", () => resolve(socket.end() && true));
    socket.once("error", () => resolve(false));
  });
}

const runs = (command, args) => {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

const problems = [];
if (!fs.existsSync(haproxy)) problems.push(`${haproxy} is missing (apt-get install -y haproxy)`);
if (!fs.existsSync(patroni)) problems.push(`${patroni} is missing (apt-get install -y patroni)`);
else if (!runs("/usr/bin/python3", ["-c", "import etcd"])) {
  problems.push("Patroni's etcd client is missing (apt-get install -y python3-etcd)");
}
const etcd = process.env.ETCD ?? "/usr/bin/etcd";
if (!fs.existsSync(etcd)) problems.push(`${etcd} is missing (apt-get install -y etcd-server)`);
if (!fs.existsSync(pgbackrest)) problems.push(`${pgbackrest} is missing (apt-get install -y pgbackrest)`);
// The partition fault blocks a node's traffic with nftables, which needs root.
if (process.getuid?.() === 0 && !["/usr/sbin/nft", "/sbin/nft"].some((f) => fs.existsSync(f))) {
  problems.push("nft is missing (apt-get install -y nftables)");
}
const pgBase = "/usr/lib/postgresql";
if (
  !fs.existsSync(pgBase) ||
  !fs.readdirSync(pgBase).some((v) => fs.existsSync(`${pgBase}/${v}/bin/postgres`))
) {
  problems.push(`no PostgreSQL server in ${pgBase} (apt-get install -y postgresql)`);
}
// PostgreSQL refuses to run as root: as root the nodes run as the postgres account.
if (process.getuid?.() === 0 && !runs("id", ["-u", "postgres"])) {
  problems.push("running as root, and there is no postgres account to run PostgreSQL as");
}
if (!(await reachable(redisUrl.hostname, Number(redisUrl.port || 6379)))) {
  problems.push(`Redis does not answer on ${redisUrl.host} (set TEST_REDIS_URL or start redis-server)`);
}

if (problems.length > 0) {
  const list = problems.map((p) => `  - ${p}`).join("\n");
  if (process.env.FAILOVER === "required") {
    console.error(`FAILOVER=required but the failover tests cannot run:\n${list}`);
    process.exit(1);
  }
  console.info(`failover tests skipped:\n${list}`);
  process.exit(0);
}

console.info("\n▶ failover tests: Patroni (3 nodes) behind HAProxy, 3 app instances, faults under load");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const result = spawnSync(
  process.execPath,
  [vitest, "run", "--project", "failover", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
