import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type PostgresBalancer, type PostgresNode, startPostgresBalancer } from "@/tests/support/haproxy";
import { freePort, waitFor } from "@/tests/support/server-process";

/** Debian's package (`apt-get install -y patroni python3-etcd`); PATRONI names another binary. */
export const PATRONI_BIN = process.env.PATRONI ?? "/usr/bin/patroni";

/** Debian's etcd (`apt-get install -y etcd-server`), Patroni's store (decision 045); ETCD names another binary. */
export const ETCD_BIN = process.env.ETCD ?? "/usr/bin/etcd";

/** The newest PostgreSQL server Debian installed (/usr/lib/postgresql/<major>/bin), or undefined. */
export function postgresBinDir(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return undefined;
  const majors = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(base, majors[0], "bin") : undefined;
}

/** What is missing for a Patroni cluster on this machine (empty when it can start). */
export function patroniProblems(): string[] {
  const problems: string[] = [];
  if (!fs.existsSync(PATRONI_BIN)) problems.push(`${PATRONI_BIN} is missing (apt-get install -y patroni)`);
  else {
    // Debian's patroni runs on /usr/bin/python3, whatever python3 a PATH puts first.
    try {
      execFileSync("/usr/bin/python3", ["-c", "import etcd"], { stdio: "ignore" });
    } catch {
      problems.push("Patroni's etcd client is missing (apt-get install -y python3-etcd)");
    }
  }
  if (!fs.existsSync(ETCD_BIN)) problems.push(`${ETCD_BIN} is missing (apt-get install -y etcd-server)`);
  if (!postgresBinDir())
    problems.push("no PostgreSQL server in /usr/lib/postgresql (apt-get install -y postgresql)");
  return problems;
}

export interface PatroniNode extends PostgresNode {
  /** This host's etcd member: its client port (Patroni) and its peer port (the other members). */
  etcdPort: number;
  etcdPeerPort: number;
  dir: string;
  dataDir: string;
  patroni?: ChildProcess;
  etcd?: ChildProcess;
  output: string;
  /**
   * The group this node's etcd, Patroni and PostgreSQL run as (a number of its own, no account needed): the
   * partition fault drops every packet a socket of this group sends (nftables `meta skgid`).
   */
  gid: number;
}

export interface PatroniCluster {
  nodes: PatroniNode[];
  balancer: PostgresBalancer;
  /** The app's one connection string: through HAProxy, to whichever node is the primary. */
  url(database?: string): string;
  /** The current leader as Patroni's REST API says it (GET /cluster on any live node). */
  leader(): Promise<PatroniNode | undefined>;
  /** Each member's role and state ("leader"/"sync_standby"/"replica", "running"/"streaming"…). */
  members(): Promise<{ name: string; role: string; state: string; lag?: number | string }[]>;
  /** The PID of a node's postmaster (from postmaster.pid), or undefined when it is not running. */
  postmasterPid(node: PatroniNode): number | undefined;
  /** A node's etcd, its Patroni, its postmaster and every PostgreSQL process under it: what a frozen host stops. */
  nodeProcesses(node: PatroniNode): number[];
  /** Kills the backends a dead postmaster of this node left behind; returns their titles. */
  reapOrphans(node: PatroniNode): string[];
  /** Sends a signal to each process, skipping those that ended meanwhile (short-lived backends). */
  signal(pids: number[], signal: NodeJS.Signals): void;
  /** Starts what of a node is not running: its etcd member, then its Patroni (after a kill). */
  startNode(node: PatroniNode): void;
  /**
   * Cuts a node off from everything else on the machine (its peers, HAProxy, the app) with an nftables table
   * of this cluster's own: every packet its processes send and every packet sent to its ports is dropped.
   * Its Unix socket stays reachable, so a test can still try a write on it directly.
   */
  partition(node: PatroniNode): void;
  /** Removes the partition's rules (also done by stop() and when the test process exits). */
  heal(): void;
  /** pgBackRest's configuration and stanza, when started with `backups: true`. */
  backups?: Backups;
  /** A full base backup of the current primary into the repository (stanza created the first time). */
  backup(): Promise<void>;
  /** Patroni's log of a node (INFO and up), for a failed test's message. */
  log(node: PatroniNode, chars?: number): string;
  /** Waits until one leader and every other node streams from it, and HAProxy routes to the leader. */
  waitHealthy(timeoutMs?: number): Promise<PatroniNode>;
  stop(): Promise<void>;
}

const PG_USER = "postgres";

/** A connection string through the PostgreSQL balancer listening on `port`. */
const balancerUrl = (port: number, database = "postgres") =>
  `postgres://${PG_USER}@127.0.0.1:${port}/${database}`;

/** True when a session through the balancer on `port` lands on a primary that accepts writes. */
async function writableThrough(port: number): Promise<boolean> {
  const client = new pg.Client({
    connectionString: balancerUrl(port),
    connectionTimeoutMillis: 2_000,
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ writable: boolean }>(
      "select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable",
    );
    return rows[0]?.writable === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Debian's pgBackRest (`apt-get install -y pgbackrest`); PGBACKREST names another binary. */
export const PGBACKREST_BIN = process.env.PGBACKREST ?? "/usr/bin/pgbackrest";

export interface Backups {
  configFile: string;
  stanza: string;
}

/** The uid/gid PostgreSQL runs as: the postgres account when this process is root (initdb refuses root). */
function runAs(): { uid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return { uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()) };
}

/** Whether a process this harness started is still running. */
function running(child: ChildProcess | undefined): child is ChildProcess {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

/** The longest a partition lasts: its rules expire by themselves after this, healed or not. */
const PARTITION_LIMIT_S = 120;

/** nftables, to partition a node (root only); undefined when this machine cannot. */
export const NFT_BIN = ["/usr/sbin/nft", "/sbin/nft"].find((f) => fs.existsSync(f));

/**
 * A node's Patroni configuration (JSON is YAML). Timings for a test machine's RTO target: the leader key
 * lives 10 s, Patroni loops every second, and a primary whose postmaster died fails over at once
 * (primary_start_timeout 0) instead of being restarted in place. synchronous_mode with two synchronous
 * standbys and strict mode: a commit is acknowledged only once every healthy standby has it, a dead standby
 * leaves the set within a loop, and with none left writes wait rather than being acknowledged on one node
 * (decision 026).
 */
function patroniConfig(
  scope: string,
  node: PatroniNode,
  all: PatroniNode[],
  binDir: string,
  backups: Backups | undefined,
) {
  // Continuous archiving to pgBackRest's repository (decision 033): only the primary archives, each node
  // naming its own data dir (a WAL path PostgreSQL passes is relative to it); a quiet primary still closes
  // a segment every minute, the most a restore from the archive can miss.
  const archiving = backups
    ? {
        archive_mode: "on",
        archive_timeout: 60,
      }
    : {};
  const archiveCommand = backups
    ? {
        archive_command: `${PGBACKREST_BIN} --config=${backups.configFile} --stanza=${backups.stanza} --pg1-path=${node.dataDir} archive-push %p`,
      }
    : {};
  return {
    scope,
    name: node.name,
    // INFO to a file in the node's dir: why a node did not rejoin is in there (HAProxy's checks end with a
    // reset that Patroni logs as a traceback, so its output is only kept as a tail).
    log: { level: "INFO", dir: node.dir, file_num: 2, file_size: 10_000_000 },
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    // etcd's v2 API (decision 045: Patroni 3.0.2's etcd3 code can take the leader key back unconditionally).
    // Every member, this host's first: Patroni moves to another when one does not answer.
    etcd: {
      hosts: [node, ...all.filter((n) => n !== node)].map((n) => `127.0.0.1:${n.etcdPort}`),
    },
    bootstrap: {
      dcs: {
        ttl: 10,
        loop_wait: 1,
        retry_timeout: 3,
        maximum_lag_on_failover: 16 * 1024 * 1024,
        primary_start_timeout: 0,
        synchronous_mode: true,
        synchronous_mode_strict: true,
        synchronous_node_count: all.length - 1,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            wal_level: "replica",
            hot_standby: "on",
            max_connections: 100,
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: "256MB",
            shared_buffers: "32MB",
            synchronous_commit: "on",
            // A standby whose WAL source went away (the old primary) tries the new one after this, not after
            // the default 5 s: until it streams from the new primary, the new primary has no synchronous standby
            // and, strict, acknowledges nothing (bench/FAILOVER.md: ~5 s of every failover's RTO).
            wal_retrieve_retry_interval: "250ms",
            ...archiving,
          },
        },
      },
      initdb: [{ encoding: "UTF8" }, { locale: "C.UTF-8" }, "data-checksums"],
    },
    postgresql: {
      listen: `127.0.0.1:${node.port}`,
      connect_address: `127.0.0.1:${node.port}`,
      data_dir: node.dataDir,
      bin_dir: binDir,
      pgpass: path.join(node.dir, "pgpass"),
      // A node that cannot rewind onto the new timeline (its WAL went past the fork and pg_rewind failed, or
      // it diverged) is cloned again from the leader instead of staying out of the synchronous set for good.
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      // A clone starts from an immediate checkpoint: the default spreads it over checkpoint_timeout's minutes,
      // and a node being cloned again (a soak's seed 4) kept the next test waiting past its hook's limit.
      basebackup: [{ checkpoint: "fast" }],
      authentication: {
        superuser: { username: PG_USER, password: "failover" },
        replication: { username: "replicator", password: "failover" },
      },
      parameters: { unix_socket_directories: node.dir, ...archiveCommand },
      pg_hba: [
        "local all all trust",
        "host all all 127.0.0.1/32 trust",
        "host replication all 127.0.0.1/32 trust",
      ],
    },
  };
}

/**
 * Three PostgreSQL nodes under Patroni, each host with its member of a three-member etcd, in a temp dir on free
 * loopback ports, and HAProxy routing to the primary: never the machine's own cluster.
 */
export async function startPatroniCluster(
  size = 3,
  { backups: withBackups = false }: { backups?: boolean } = {},
): Promise<PatroniCluster> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error("no PostgreSQL server in /usr/lib/postgresql");
  const owner = runAs();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-patroni-"));
  fs.chmodSync(root, 0o755);
  const scope = `pillar-${randomBytes(4).toString("hex")}`;
  const backups: Backups | undefined = withBackups
    ? { configFile: path.join(root, "pgbackrest", "pgbackrest.conf"), stanza: "pillar" }
    : undefined;
  // Groups of its own per node, random so two clusters on one machine never share one (nor a system group).
  const gidBase = 200_000 + (randomBytes(3).readUIntBE(0, 3) % 1_000_000) * 4;
  const nodes: PatroniNode[] = [];
  for (let i = 1; i <= size; i++) {
    const dir = path.join(root, `pg${i}`);
    fs.mkdirSync(dir, { mode: 0o700 });
    nodes.push({
      name: `pg${i}`,
      port: await freePort(),
      restPort: await freePort(),
      etcdPort: await freePort(),
      etcdPeerPort: await freePort(),
      dir,
      dataDir: path.join(dir, "data"),
      output: "",
      gid: gidBase + i,
    });
  }
  if (backups) {
    const dir = path.dirname(backups.configFile);
    fs.mkdirSync(dir, { mode: 0o750 });
    fs.writeFileSync(
      backups.configFile,
      [
        "[global]",
        `repo1-path=${path.join(dir, "repo")}`,
        "repo1-retention-full=2",
        `log-path=${path.join(dir, "log")}`,
        `lock-path=${path.join(dir, "lock")}`,
        `spool-path=${path.join(dir, "spool")}`,
        "start-fast=y",
        "log-level-console=warn",
        "log-level-file=info",
        "",
        `[${backups.stanza}]`,
        `pg1-path=${nodes[0]!.dataDir}`,
        "",
      ].join("\n"),
    );
    if (owner) execFileSync("chown", ["-R", `${owner.uid}`, dir]);
  }
  for (const node of nodes) {
    fs.writeFileSync(
      path.join(node.dir, "patroni.yml"),
      JSON.stringify(patroniConfig(scope, node, nodes, binDir, backups), null, 2),
    );
    if (owner) execFileSync("chown", ["-R", `${owner.uid}:${node.gid}`, node.dir]);
  }

  /**
   * One of a node's processes, in its dir, as the postgres account and the node's own group (the partition's
   * mark) when run as root; only the tail of its output is kept (HAProxy ends each health check with a reset,
   * which Patroni logs as a traceback).
   */
  const spawnOnNode = (node: PatroniNode, bin: string, args: string[]) => {
    const child = spawn(bin, args, {
      cwd: node.dir,
      env: { PATH: "/usr/bin:/bin", HOME: node.dir, LANG: "C.UTF-8" },
      ...(owner ? { uid: owner.uid, gid: node.gid } : {}),
    });
    const keep = (d: Buffer) => {
      node.output = (node.output + d).slice(-30_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    return child;
  };
  const etcdCluster = nodes.map((n) => `${n.name}=http://127.0.0.1:${n.etcdPeerPort}`).join(",");
  const startEtcd = (node: PatroniNode) => {
    const url = (port: number) => `http://127.0.0.1:${port}`;
    // Flags a restart ignores (the member and its cluster are in its data dir) and timings for loopback: a
    // frozen host's member, when it led, is replaced within about a second.
    node.etcd = spawnOnNode(node, ETCD_BIN, [
      `--name=${node.name}`,
      `--data-dir=${path.join(node.dir, "etcd")}`,
      `--listen-client-urls=${url(node.etcdPort)}`,
      `--advertise-client-urls=${url(node.etcdPort)}`,
      `--listen-peer-urls=${url(node.etcdPeerPort)}`,
      `--initial-advertise-peer-urls=${url(node.etcdPeerPort)}`,
      `--initial-cluster=${etcdCluster}`,
      `--initial-cluster-token=${scope}`,
      "--initial-cluster-state=new",
      "--heartbeat-interval=100",
      "--election-timeout=1000",
      // Patroni 3.0.2 is used through the v2 API (decision 045), which etcd 3.4 serves when asked.
      "--enable-v2=true",
      "--log-level=warn",
    ]);
  };
  const startNode = (node: PatroniNode) => {
    if (!running(node.etcd)) startEtcd(node);
    if (running(node.patroni)) return;
    node.patroni = spawnOnNode(node, PATRONI_BIN, [path.join(node.dir, "patroni.yml")]);
  };
  const alive = (node: PatroniNode) => running(node.patroni);

  const restGet = async (node: PatroniNode, what: string) => {
    const res = await fetch(`http://127.0.0.1:${node.restPort}${what}`, {
      signal: AbortSignal.timeout(1500),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const members = async () => {
    for (const node of nodes.filter(alive)) {
      try {
        const { body } = await restGet(node, "/cluster");
        return body.members as { name: string; role: string; state: string; lag?: number | string }[];
      } catch {
        // This node's API does not answer (stopped, or busy): ask another.
      }
    }
    return [];
  };
  const leader = async () => {
    const name = (await members()).find((m) => m.role === "leader" && m.state === "running")?.name;
    return nodes.find((n) => n.name === name);
  };
  const postmasterPid = (node: PatroniNode) => {
    try {
      const pid = Number(fs.readFileSync(path.join(node.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  };

  /** The given processes and every process under them, from /proc. */
  const descendants = (roots: number[]) => {
    const parents = new Map<number, number>();
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      } catch {
        // The process ended while we looked.
      }
    }
    const found = new Set(roots);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, parent] of parents) {
        if (!found.has(pid) && found.has(parent)) {
          found.add(pid);
          grew = true;
        }
      }
    }
    return [...found];
  };
  const nodeProcesses = (node: PatroniNode) =>
    descendants(
      [running(node.etcd) ? node.etcd?.pid : undefined, node.patroni?.pid, postmasterPid(node)].filter(
        (pid): pid is number => pid !== undefined,
      ),
    );

  /**
   * PostgreSQL processes a SIGKILLed postmaster left behind (backends still attached to its shared memory:
   * their cwd is the data dir, their postmaster is gone). While they live the node cannot start again
   * ("pre-existing shared memory block is still in use"); on a real host a crash takes them too, and systemd
   * (KillMode=control-group) kills them. Returns what it killed.
   */
  const reapOrphans = (node: PatroniNode) => {
    const cmdline = (pid: number | string) =>
      fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    const killed: string[] = [];
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (fs.readlinkSync(`/proc/${entry}/cwd`) !== node.dataDir) continue;
        // A backend or auxiliary process ("postgres: <cluster>: …") whose parent is no postmaster any more. A
        // postmaster itself ("…/bin/postgres -D …", started detached by Patroni) is never touched.
        const title = cmdline(entry);
        if (!title.startsWith("postgres: ")) continue;
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]!;
        if (/\/bin\/postgres /.test(cmdline(parent))) continue;
        killed.push(title);
        process.kill(Number(entry), "SIGKILL");
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
    return killed;
  };

  // The partition: one nftables table named after this cluster, so removing it never touches other rules.
  const table = `pillar_${scope.replace(/\W/g, "_")}`;
  let partitioned = false;
  const heal = () => {
    if (!partitioned || !NFT_BIN) return;
    execFileSync(NFT_BIN, ["delete", "table", "inet", table], { stdio: "ignore" });
    partitioned = false;
  };
  const partition = (node: PatroniNode) => {
    if (!NFT_BIN || process.getuid?.() !== 0) throw new Error("partitioning a node needs nft and root");
    heal();
    // Set elements that expire by themselves: a test process killed before it could heal leaves no rule that
    // blocks ports another run may be given later.
    const ttl = `timeout ${PARTITION_LIMIT_S}s`;
    const ports = [node.port, node.restPort, node.etcdPort, node.etcdPeerPort]
      .map((p) => `${p} ${ttl}`)
      .join(", ");
    // Output only: on loopback every packet passes it once. What the node sends (requests and answers alike,
    // by its group) and what anyone sends to its ports is dropped, silently, as a cut cable does.
    const rules = [
      `table inet ${table} {`,
      `  set ports { type inet_service; flags timeout; elements = { ${ports} } }`,
      `  set groups { type gid; flags timeout; elements = { ${node.gid} ${ttl} } }`,
      "  chain out {",
      "    type filter hook output priority 0; policy accept;",
      "    meta skgid @groups drop",
      "    tcp dport @ports drop",
      "  }",
      "}",
      "",
    ].join("\n");
    execFileSync(NFT_BIN, ["-f", "-"], { input: rules });
    partitioned = true;
  };
  const log = (node: PatroniNode, chars = 4000) => {
    try {
      return fs.readFileSync(path.join(node.dir, "patroni.log"), "utf8").slice(-chars);
    } catch {
      return node.output.slice(-chars);
    }
  };

  /** Asks a node's Patroni to clone its data again from the leader (POST /reinitialize). */
  const reinitialize = async (node: PatroniNode) => {
    await fetch(`http://127.0.0.1:${node.restPort}/reinitialize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ force: true }),
      signal: AbortSignal.timeout(3000),
    }).catch(() => undefined);
  };

  let stanzaCreated = false;
  const backup = async () => {
    if (!backups) throw new Error("the cluster was started without backups");
    const leader = await waitHealthy();
    const pgbackrest = (command: string) => {
      const args = [
        `--config=${backups.configFile}`,
        `--stanza=${backups.stanza}`,
        `--pg1-path=${leader.dataDir}`,
        `--pg1-port=${leader.port}`,
        `--pg1-socket-path=${leader.dir}`,
        `--pg1-user=${PG_USER}`,
        ...(command === "backup" ? ["--type=full"] : []),
        command,
      ];
      const result = spawnSync(PGBACKREST_BIN, args, { encoding: "utf8", ...(owner ?? {}) });
      if (result.status !== 0)
        throw new Error(`pgbackrest ${command} failed (${result.status}):\n${result.stdout}${result.stderr}`);
    };
    if (!stanzaCreated) pgbackrest("stanza-create");
    stanzaCreated = true;
    pgbackrest("backup");
  };

  let balancer: PostgresBalancer | undefined;
  const waitHealthy = async (timeoutMs = 60_000) => {
    const behindSince = new Map<string, number>();
    const ready = await waitFor(
      "one Patroni leader with every other node streaming synchronously",
      async () => {
        for (const node of nodes) {
          const killed = reapOrphans(node);
          if (killed.length > 0)
            node.output += `\n[test] killed what its dead postmaster left: ${killed.join("; ")}\n`;
        }
        const list = await members();
        const lead = list.find((m) => m.role === "leader" && m.state === "running");
        // Patroni 3.0 reports a standby as "running"; later versions say "streaming".
        const standbys = list.filter(
          (m) => m.role === "sync_standby" && (m.state === "running" || m.state === "streaming"),
        );
        if (lead) {
          // A standby that has not streamed for 20 s with a leader in place (stuck on an old timeline,
          // or not even listed) is cloned again: the next test starts from a whole cluster whatever this
          // one left.
          for (const node of nodes) {
            if (node.name === lead.name || !alive(node)) continue;
            if (standbys.some((m) => m.name === node.name)) behindSince.delete(node.name);
            else if (!behindSince.has(node.name)) behindSince.set(node.name, Date.now());
            else if (Date.now() - behindSince.get(node.name)! > 20_000) {
              node.output += `\n[test] ${node.name} did not stream for 20 s: reinitialized\n`;
              behindSince.set(node.name, Date.now() + 30_000);
              await reinitialize(node);
            }
          }
        }
        if (!lead || standbys.length !== nodes.length - 1) return undefined;
        return nodes.find((n) => n.name === lead.name);
      },
      { timeoutMs, intervalMs: 250 },
    ).catch(async (err) => {
      // What each node says and last wrote: why it did not rejoin.
      const list = JSON.stringify(await members());
      const logs = nodes.map((n) => `--- ${n.name}\n${log(n, 2500)}`).join("\n");
      throw new Error(`${err.message}\nmembers: ${list}\n${logs}`);
    });
    if (balancer) {
      const routed = balancer;
      await waitFor("HAProxy to route to the leader", async () => (await routed.primary()) === ready.name, {
        timeoutMs: 15_000,
        intervalMs: 100,
      });
      // Routed is not always writable: a leader that lost its key for a moment (etcd slow to answer on a busy
      // machine) is demoted and promoted again, read-only in between. What follows writes at once.
      await waitFor("a write-capable session through HAProxy", () => writableThrough(routed.port), {
        timeoutMs: 30_000,
        intervalMs: 200,
      });
    }
    return ready;
  };

  const stop = async () => {
    heal();
    await balancer?.stop();
    // SIGCONT first: a node a failed test left frozen would never act on SIGTERM.
    for (const node of nodes) {
      for (const pid of nodeProcesses(node)) {
        try {
          process.kill(pid, "SIGCONT");
        } catch {
          // Already gone.
        }
      }
    }
    // Patroni stops its PostgreSQL on SIGTERM; a postmaster left behind (its Patroni killed) is stopped too.
    await Promise.all(
      nodes.map(async (node) => {
        if (!alive(node)) return;
        const child = node.patroni!;
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    // The etcd members last: a Patroni stopping still writes to its store.
    await Promise.all(
      nodes.map(async (node) => {
        if (!running(node.etcd)) return;
        const member = node.etcd;
        const exited = new Promise<void>((resolve) => member.once("exit", () => resolve()));
        member.kill("SIGTERM");
        const timer = setTimeout(() => member.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    killAll();
    for (const node of nodes) reapOrphans(node);
    process.removeListener("exit", killAll);
    fs.rmSync(root, { recursive: true, force: true });
  };

  // A run that ends without stop() (a failed hook, a killed test process) leaves no cluster behind.
  const killAll = () => {
    try {
      heal();
    } catch {
      // Already gone.
    }
    for (const node of nodes) {
      const pids = [
        running(node.etcd) ? node.etcd.pid : undefined,
        alive(node) ? node.patroni?.pid : undefined,
      ];
      for (const pid of [...pids, postmasterPid(node)]) {
        try {
          if (pid) process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
  };
  process.once("exit", killAll);

  try {
    // The first node bootstraps (initdb) and takes the leader key; the others then clone it.
    for (const node of nodes) startNode(node);
    await waitHealthy(120_000);
    balancer = await startPostgresBalancer(nodes);
    await waitHealthy();
  } catch (err) {
    await stop();
    throw err;
  }
  const lb = balancer;
  return {
    nodes,
    balancer: lb,
    url: (database = "postgres") => balancerUrl(lb.port, database),
    leader,
    members,
    postmasterPid,
    nodeProcesses,
    reapOrphans,
    signal: (pids, sig) => {
      for (const pid of pids) {
        try {
          process.kill(pid, sig);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
        }
      }
    },
    startNode,
    partition,
    heal,
    backups,
    backup,
    log,
    waitHealthy,
    stop,
  };
}
