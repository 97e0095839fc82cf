import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { stopRestoredCluster } from "@/scripts/restore-check";
import { createIncomingPayment } from "@/server/features/credits/incoming-payments";
import { computeStatementDigest } from "@/server/features/statements/statement-data";
import { type Cluster, startCluster, tokenOf } from "@/tests/support/cluster";
import { type ClientReply, request } from "@/tests/support/http-client";
import { createApprovedCustomer } from "@/tests/support/money";
import { NFT_BIN, type PatroniCluster, type PatroniNode, startPatroniCluster } from "@/tests/support/patroni";
import { programArgs } from "@/tests/support/program";
import { freshTotpCode } from "@/tests/support/second-factor";
import { waitFor } from "@/tests/support/server-process";
import { expectTransfersConsistent } from "@/tests/support/transfer-invariants";
import { createAdminUser, createVerifiedUser } from "@/tests/support/users";
import {
  type Customer,
  checkBank,
  expectTotalsConserved,
  type Measured,
  type Outcome,
  type Staff,
  startWorkload,
  writeLog,
} from "./bank-workload";

const CUSTOMERS = 10;
const FUNDED_CENTS = 150_000;
/** Load before the fault, and after the first write acknowledged once it struck. */
const STEADY_MS = 3_000;
/**
 * The soak (`npm run soak:failover`) runs every fault once per seed on one cluster: FAILOVER_SEEDS of them from
 * FAILOVER_SEED. A seed moves the fault's moment in the load (2 to 5 s in) and picks which standby dies.
 */
const FIRST_SEED = Number(process.env.FAILOVER_SEED ?? "1");
const SEEDS = Array.from({ length: Number(process.env.FAILOVER_SEEDS ?? "1") }, (_, i) => FIRST_SEED + i);
const AFTER_RECOVERY_MS = 4_000;
/** The worst case on this machine. */
const RTO_LIMIT_MS = 30_000;
/** The partition needs nftables and root (tests/support/patroni.ts); CI runs as root. */
const CAN_PARTITION = NFT_BIN !== undefined && process.getuid?.() === 0;

let db: PatroniCluster;
let admin: Awaited<ReturnType<typeof createAdminUser>>;
/** The finance member who approves the workload's credits over the threshold (decision 017). */
let checker: StaffMember;
let app: Cluster;
const customers: Customer[] = [];
const allOutcomes: Outcome[] = [];
const results: Measured[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  db = await startPatroniCluster(3, { backups: true });
  // Where the fencing tests try writes on an old primary directly (the postgres database, not the app's).
  const setup = new pg.Client({ connectionString: db.url() });
  await setup.connect();
  await setup.query("create table fence_probe (note text not null, at timestamptz not null default now())");
  await setup.end();
  // Three app instances behind their own HAProxy, each with the one DATABASE_URL: the PostgreSQL balancer.
  app = await startCluster(
    3,
    { RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "100000" },
    { databaseServerUrl: db.url() },
  );
  admin = await createAdminUser(app.scratch.database);
  checker = await staffMember();
});

interface StaffMember {
  id: string;
  cookie: string;
  secret: string;
}

/**
 * A set-up call through the balancer, resent as a careful client does while the app answers 503 `retryable`
 * (a slow machine can time a step out just after a fault; the workload's requests do the same). `send` builds
 * each try afresh (a TOTP code is accepted once per step).
 */
async function setUpCall(what: string, send: () => Promise<ClientReply>, done?: () => Promise<boolean>) {
  const deadline = Date.now() + 60_000;
  for (let tries = 1; ; tries++) {
    const reply = await send();
    if (reply.status === 200) return reply.body as Record<string, unknown>;
    const retryable = reply.status === 503 && (reply.body as { retryable?: boolean }).retryable === true;
    // An earlier try whose answer was lost may have done it already.
    if (tries > 1 && done && (await done())) return {};
    if (!retryable || Date.now() > deadline) {
      expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
    await sleep(500);
  }
}

/** A finance member with an authenticator (staff must have one in production), set up through the balancer. */
async function staffMember(): Promise<StaffMember> {
  const user = await createVerifiedUser(app.scratch.database, { staffRoles: ["finance"] });
  const cookie = app.cookieFor(tokenOf(user.cookie));
  const post = (path: string, body: () => Promise<object>) => () =>
    body().then((b) => request(app.lb.url, path, { method: "POST", headers: { cookie }, body: b }));
  const confirmed = async () =>
    (
      await app.scratch.database.query<{ n: number }>(
        "select count(*)::int as n from totp_factors where user_id = $1 and confirmed_at is not null",
        [user.user.id],
      )
    )[0]!.n === 1;
  const { secret } = (await setUpCall(
    "enrol",
    post("/api/auth/totp/enroll", async () => ({})),
  )) as { secret: string };
  await setUpCall(
    "confirm",
    post("/api/auth/totp/confirm", async () => ({
      code: await freshTotpCode(app.scratch.database, user.user.id, secret),
    })),
    confirmed,
  );
  return { id: user.user.id, cookie, secret };
}

/** "Verify it's you" with a computed TOTP code: completing a credit and approving one need it (5 minutes). */
async function stepUp(member: StaffMember) {
  await setUpCall("step-up", async () =>
    request(app.lb.url, "/api/auth/step-up", {
      method: "POST",
      headers: { cookie: member.cookie },
      body: {
        secondFactor: {
          method: "totp",
          code: await freshTotpCode(app.scratch.database, member.id, member.secret),
        },
      },
    }),
  );
}

/**
 * The run's staff: a new maker each time (so its 24-hour credit window starts empty and its first credits are
 * made at once) and the one checker, both freshly stepped up.
 */
async function staffForRun(): Promise<Staff> {
  const maker = await staffMember();
  await stepUp(maker);
  await stepUp(checker);
  return { makerCookie: maker.cookie, checkerCookie: checker.cookie };
}

/**
 * New funded customers for a seed (and for the restore): a soak of many seeds would otherwise reach their
 * $2,000 daily limit and their balance, and every later transfer would be a refusal. The totals check
 * follows the current customers' outcomes only.
 */
async function freshCustomers() {
  customers.length = 0;
  allOutcomes.length = 0;
  for (let i = 0; i < CUSTOMERS; i++) {
    const user = await createApprovedCustomer(app.scratch.database);
    const funded = await createIncomingPayment(app.scratch.database.db, admin.user.id, {
      userId: user.user.id,
      amount: (FUNDED_CENTS / 100).toFixed(2),
      status: "completed",
    });
    // Funded before today (as tests/support/money.ts's fundCustomer does): outside the customer's 24-hour credit
    // window, so the workload's small credits to them are made at once until the window fills.
    await app.scratch.database.query(
      `update journal_entries set created_at = created_at - interval '25 hours'
         where reference_type = 'incoming_payment' and reference_id = $1`,
      [funded.payment.id],
    );
    customers.push({ user, cookie: app.cookieFor(tokenOf(user.cookie)), fundedCents: FUNDED_CENTS });
  }
}

// Each fault starts on a healthy cluster: every node back, one leader, both standbys synchronous.
beforeEach(async () => {
  db.heal();
  // Whatever of a node an earlier fault killed (its etcd member, its Patroni) starts again.
  for (const node of db.nodes) db.startNode(node);
  await db.waitHealthy(120_000);
  await app.ensureHealthy();
});

afterAll(async () => {
  if (results.length > 0) report(results);
  db?.heal();
  // Dropping the app's database waits for the standbys like any commit: a cluster a failed test left broken
  // gets a bounded chance to heal first, and is then torn down regardless.
  await db?.waitHealthy(60_000).catch((err) => console.error(err.message));
  await app?.stop();
  await db?.stop();
});

/**
 * Load, the fault, load until a write is acknowledged again and a little more, then every unknown resolved by
 * its retry, and the bank checked: nothing acknowledged lost, nothing written twice, totals conserved, and
 * the ledger invariants (in-process and through `npm run cli -- ledger:verify`).
 */
async function underLoad(scenario: string, seed: number, fault: () => Promise<void>): Promise<Measured> {
  // Keys and purposes of their own per seed: the check looks at this run's transfers only.
  const tag = SEEDS.length > 1 ? `${scenario}-s${seed}` : scenario;
  const workload = startWorkload(app.lb.url, customers, tag, { staff: await staffForRun() });
  const faultAt = Date.now() + (SEEDS.length > 1 ? 2_000 + ((seed * 7919) % 3_000) : STEADY_MS);
  const log = path.join(os.tmpdir(), `pillar-failover-${tag}.jsonl`);
  try {
    await sleep(faultAt - Date.now());
    await fault();
    await waitFor(
      "a write acknowledged after the fault",
      () => workload.tries.some((t) => t.status >= 200 && t.status < 300 && t.sentAt >= faultAt),
      { timeoutMs: 90_000, intervalMs: 100 },
    ).catch(async (err) => {
      // What the cluster looked like when writes did not come back, for the log.
      const members = await db.members().catch((e: Error) => e.message);
      throw new Error(
        `${(err as Error).message}; members: ${JSON.stringify(members)}; every request is in ${log}`,
      );
    });
    await sleep(AFTER_RECOVERY_MS);
  } finally {
    // Never left running into the next test (its credits would land in that test's totals); whatever it got
    // is definite once it stops, and stays in the totals of this seed's customers.
    await workload
      .stop()
      .catch((err: Error) => console.error(`${tag}: the workload did not stop: ${err.message}`));
    allOutcomes.push(...workload.outcomes);
    writeLog(log, workload.tries);
  }
  try {
    const measured = {
      ...(await checkBank(app.scratch.database, tag, customers, workload, faultAt)),
      scenario,
    };
    await expectTotalsConserved(app.scratch.database, customers, allOutcomes);
    await expectTransfersConsistent(app.scratch.database, app.scratch.url);
    await expectStatementsVerify();
    results.push(measured);
    console.info(`${tag}: ${JSON.stringify(measured)}`);
    fs.rmSync(log, { force: true });
    return measured;
  } catch (err) {
    console.error(`${scenario}: every request is in ${log}`);
    throw err;
  }
}

/**
 * Every customer's statement for this month recomputes from the ledger on the new primary, and the CLI's
 * statement:verify (another process, through the balancer) agrees with the digest for one of them.
 */
async function expectStatementsVerify() {
  const month = new Date().toISOString().slice(0, 7);
  const digests = await Promise.all(
    customers.map(
      async (c) => (await computeStatementDigest(app.scratch.database.db, c.user.user.id, month)).digest,
    ),
  );
  const cli = spawnSync(
    process.execPath,
    [...programArgs("scripts/cli.ts"), "statement:verify", customers[0]!.user.user.id, month, digests[0]!],
    {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, DATABASE_URL: app.scratch.url },
      encoding: "utf8",
    },
  );
  expect(cli.status, cli.stdout + cli.stderr).toBe(0);
  expect(cli.stdout).toContain("Statement verified");
}

function killPostmaster(node: PatroniNode) {
  const pid = db.postmasterPid(node);
  if (!pid) throw new Error(`${node.name} has no running postmaster`);
  process.kill(pid, "SIGKILL");
}

describe.each(SEEDS)("the database's primary or a standby lost under a transfer load (seed %i)", (seed) => {
  beforeAll(freshCustomers);

  it("SIGKILL of the primary's postmaster: a standby takes over, no acknowledged transfer is lost", async () => {
    const leader = (await db.leader())!;
    const measured = await underLoad("primary-kill", seed, async () => killPostmaster(leader));
    expect((await db.leader())?.name).not.toBe(leader.name);
    expect(measured.lostAcknowledged).toBe(0);
    expect(measured.recoveryMs).toBeLessThanOrEqual(RTO_LIMIT_MS);
  });

  it("a standby killed (its Patroni and its PostgreSQL): writes go on with the other synchronous standby", async () => {
    const leader = (await db.leader())!;
    const standby = db.nodes.filter((n) => n !== leader)[seed % 2]!;
    const measured = await underLoad("standby-kill", seed, async () => {
      standby.patroni!.kill("SIGKILL");
      killPostmaster(standby);
    });
    expect((await db.leader())?.name).toBe(leader.name);
    expect(measured.lostAcknowledged).toBe(0);
    expect(measured.recoveryMs).toBeLessThanOrEqual(RTO_LIMIT_MS);
  });

  it("SIGSTOP of the primary past the leader key's life, then SIGCONT: a standby takes over and the old primary is fenced", async () => {
    const old = (await db.leader())!;
    const frozen = db.nodeProcesses(old);
    const routed = sampleRouting();
    let resumedAt = 0;
    let probe: Promise<string> | undefined;
    const measured = await underLoad("primary-stop", seed, async () => {
      try {
        // Its Patroni and postmaster first (nothing new is forked after), then every process under them.
        db.signal(frozen, "SIGSTOP");
        frozen.push(...db.nodeProcesses(old).filter((pid) => !frozen.includes(pid)));
        db.signal(frozen, "SIGSTOP");
        // The leader key lives 10 s; the others elect once it expired. Frozen a few seconds longer still.
        await waitForNewLeader(old);
        await sleep(3_000);
      } finally {
        resumedAt = Date.now();
        db.signal(frozen, "SIGCONT");
      }
      // The moment it wakes, before its Patroni has looked at the leader key: a write asked of it directly.
      probe = directWrite(old, "primary-stop");
    });
    await expectFenced(old, probe!, "primary-stop");
    const afterResume = (await routed.stop()).filter((r) => r.at >= resumedAt).map((r) => r.name);
    expect(afterResume.length).toBeGreaterThan(0);
    expect(afterResume).not.toContain(old.name);
    expect(measured.lostAcknowledged).toBe(0);
    expect(measured.recoveryMs).toBeLessThanOrEqual(RTO_LIMIT_MS);
  });

  it.runIf(CAN_PARTITION)(
    "the primary cut off from the others (nftables on loopback): a standby takes over, the old primary acknowledges nothing",
    async () => {
      const old = (await db.leader())!;
      const routed = sampleRouting();
      let healedAt = 0;
      let probe: Promise<string> | undefined;
      const measured = await underLoad("primary-partition", seed, async () => {
        try {
          db.partition(old);
          // Cut off, it is still a primary for a while: a write asked of it over its Unix socket.
          probe = directWrite(old, "primary-partition");
          await waitForNewLeader(old);
          await sleep(3_000);
        } finally {
          healedAt = Date.now();
          db.heal();
        }
      });
      await expectFenced(old, probe!, "primary-partition");
      const afterHeal = (await routed.stop()).filter((r) => r.at >= healedAt).map((r) => r.name);
      expect(afterHeal.length).toBeGreaterThan(0);
      expect(afterHeal).not.toContain(old.name);
      expect(measured.lostAcknowledged).toBe(0);
      expect(measured.recoveryMs).toBeLessThanOrEqual(RTO_LIMIT_MS);
    },
  );

  it("the whole cluster crashes (every node SIGKILLed) and restarts: nothing acknowledged is lost", async () => {
    const measured = await underLoad("cluster-restart", seed, async () => {
      db.signal(
        db.nodes.flatMap((node) => db.nodeProcesses(node)),
        "SIGKILL",
      );
      // What the dead postmasters left attached to their shared memory goes too, as a host crash takes it.
      await waitFor(
        "every node's processes to end",
        () =>
          db.nodes.every((n) => !db.postmasterPid(n)) &&
          db.nodes.every((n) => db.reapOrphans(n).length === 0),
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      for (const node of db.nodes) db.startNode(node);
    });
    expect(measured.lostAcknowledged).toBe(0);
    expect(measured.recoveryMs).toBeLessThanOrEqual(RTO_LIMIT_MS * 2);
  });
});

describe("a point-in-time restore from pgBackRest's archive", () => {
  beforeAll(freshCustomers);

  it("restored to a chosen second, the bank holds exactly the transfers acknowledged before it, and verifies", async () => {
    // Its own base backup, so nothing depends on what the faults above did to the timelines.
    await db.backup();
    const workload = startWorkload(app.lb.url, customers, "pitr");
    await sleep(3_000);
    // A whole second, with transfers acknowledged on both sides of it.
    const target = Math.ceil(Date.now() / 1000) * 1000;
    await sleep(target + 3_000 - Date.now());
    await workload.stop();
    allOutcomes.push(...workload.outcomes);
    await archiveCurrentWal();

    const iso = new Date(target)
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, "+00");
    const cli = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/cli.ts",
        "db:restore-check",
        `--target=${iso}`,
        `--config=${db.backups!.configFile}`,
        `--stanza=${db.backups!.stanza}`,
        "--keep",
      ],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { ...process.env, DATABASE_URL: app.scratch.url },
        encoding: "utf8",
      },
    );
    const output = cli.stdout + cli.stderr;
    const kept = /Kept running: (\S+) \(data in (\S+)\)/.exec(output);
    try {
      expect(cli.status, output).toBe(0);
      expect(output).toContain("Ledger verified: no drift.");
      expect(output).toMatch(/\d+ statement\(s\) recomputed; all together [0-9a-f]{64}\./);
      expect(kept, output).not.toBeNull();
      const restored = new pg.Client({ connectionString: kept![1] });
      await restored.connect();
      const { rows } = await restored
        .query<{ id: string }>("select id::text from transfer_requests where purpose = 'Failover pitr'")
        .finally(() => restored.end());
      const present = new Set(rows.map((r) => r.id));
      const acked = workload.tries.filter((t) => t.kind === "transfer" && t.status === 201);
      const ackedBefore = acked.filter((t) => t.answeredAt < target);
      const firstSent = new Map<string, number>();
      for (const t of workload.tries) if (!firstSent.has(t.key)) firstSent.set(t.key, t.sentAt);
      const sentAfter = acked.filter((t) => firstSent.get(t.key)! > target);
      expect(ackedBefore.length).toBeGreaterThan(0);
      expect(sentAfter.length).toBeGreaterThan(0);
      // Everything acknowledged before the second is there; nothing asked for after it; nothing unknown.
      expect(ackedBefore.filter((t) => !present.has(t.id!)).map((t) => t.key)).toEqual([]);
      expect(sentAfter.filter((t) => present.has(t.id!)).map((t) => t.key)).toEqual([]);
      const ackedIds = new Set(acked.map((t) => t.id));
      expect([...present].filter((id) => !ackedIds.has(id))).toEqual([]);
      console.info(
        `pitr: target ${iso}, ${ackedBefore.length} acknowledged before it restored, ${sentAfter.length} sent after it absent, ${present.size} in all`,
      );
    } finally {
      if (kept) stopRestoredCluster(kept[2]!);
    }
  });
});

/** Closes the primary's current WAL segment and waits until pgBackRest has archived it. */
async function archiveCurrentWal() {
  const client = new pg.Client({ connectionString: db.url() });
  await client.connect();
  try {
    const { rows } = await client.query<{ wal: string }>("select pg_walfile_name(pg_switch_wal()) as wal");
    const wal = rows[0]!.wal;
    await waitFor(
      `WAL ${wal} to be archived`,
      async () => {
        const archived = await client.query<{ last: string | null }>(
          "select last_archived_wal as last from pg_stat_archiver",
        );
        return (archived.rows[0]?.last ?? "") >= wal;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  } finally {
    await client.end();
  }
}

/** Waits until a node other than `old` holds the leader key. */
async function waitForNewLeader(old: PatroniNode) {
  await waitFor(
    "another node to lead",
    async () => {
      const leader = await db.leader();
      return leader && leader.name !== old.name;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

/** What HAProxy routes to, sampled every 100 ms until stop(). */
function sampleRouting() {
  const routed: { at: number; name: string | undefined }[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling && routed.length < 3_000) {
      routed.push({ at: Date.now(), name: await db.balancer.primary().catch(() => undefined) });
      await sleep(100);
    }
  })();
  return {
    async stop() {
      sampling = false;
      await sampler;
      return routed;
    },
  };
}

/**
 * One write asked of a node directly over its Unix socket (no HAProxy, no Patroni in the way), never
 * cancelled (a cancelled wait for the standbys would report a local commit as done). Resolves with "committed"
 * or the error's SQLSTATE or message.
 */
async function directWrite(node: PatroniNode, note: string): Promise<string> {
  const client = new pg.Client({ host: node.dir, port: node.port, user: "postgres", database: "postgres" });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("insert into fence_probe (note) values ($1)", [note]);
    return "committed";
  } catch (err) {
    return (err as { code?: string }).code ?? (err as Error).message;
  } finally {
    client.end().catch(() => {});
  }
}

/**
 * Fencing: the old primary, back among the others, follows the new one as a synchronous standby; the write
 * asked of it as it came back was never acknowledged and is nowhere in the cluster; and a write asked of it
 * now is refused (25006: a standby cannot write).
 */
async function expectFenced(old: PatroniNode, probe: Promise<string>, note: string) {
  await waitFor(
    `${old.name} to follow the new primary`,
    async () => (await db.members()).find((m) => m.name === old.name)?.role === "sync_standby",
    { timeoutMs: 90_000, intervalMs: 250 },
  ).catch((err) => {
    throw new Error(`${err.message}\n${db.log(old)}`);
  });
  expect(await probe, "the write asked of the old primary as it came back").not.toBe("committed");
  expect(await directWrite(old, `${note}-after`)).toBe("25006");
  const pool = new pg.Client({ connectionString: db.url() });
  await pool.connect();
  try {
    const { rows } = await pool.query("select note from fence_probe where note like $1", [`${note}%`]);
    expect(rows, "a write the old primary took is in the cluster").toEqual([]);
  } finally {
    await pool.end();
  }
}

/** The run's figures: printed, and with FAILOVER_RECORD=1 (the soak) written to bench/FAILOVER.md. */
function report(measured: Measured[]) {
  const seconds = (ms: number | undefined) => (ms === undefined ? "n/a" : `${(ms / 1000).toFixed(1)} s`);
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const scenarios = [...new Set(measured.map((m) => m.scenario))];
  const summary = [
    "| fault | runs | median RTO | worst RTO | requests | acknowledged (transfer, chat, credit, approve) | 503 retryable tries (all retried to a definite answer) | broken tries | lost acknowledged | written twice |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...scenarios.map((scenario) => {
      const runs = measured.filter((m) => m.scenario === scenario);
      const rto = runs.map((m) => m.recoveryMs ?? 0);
      return `| ${scenario} | ${runs.length} | ${seconds(median(rto))} | ${seconds(Math.max(...rto))} | ${sum(runs.map((m) => m.requests))} | ${sum(runs.map((m) => m.acknowledged))} (${(["transfer", "chat", "credit", "approve"] as const).map((kind) => sum(runs.map((m) => m.acknowledgedByKind[kind]))).join(", ")}) | ${sum(runs.map((m) => m.unavailable))} | ${sum(runs.map((m) => m.broken))} | ${sum(runs.map((m) => m.lostAcknowledged))} | ${sum(runs.map((m) => m.duplicated))} |`;
    }),
  ].join("\n");
  const rtos = measured.map((m) => m.recoveryMs ?? 0);
  const overall = `All faults: ${measured.length} runs, median RTO ${seconds(median(rtos))}, worst ${seconds(Math.max(...rtos))}, lost ${sum(measured.map((m) => m.lostAcknowledged))}, written twice ${sum(measured.map((m) => m.duplicated))}.`;
  console.info(`\nFailover figures (seeds ${SEEDS[0]}..${SEEDS.at(-1)})\n\n${summary}\n\n${overall}\n`);
  if (process.env.FAILOVER_RECORD === "1") {
    const file = path.resolve(import.meta.dirname, "../../bench/FAILOVER.md");
    const cpus = os.cpus();
    fs.writeFileSync(
      file,
      [
        "# Failover figures",
        "",
        "Written by `npm run soak:failover` (scripts/soak-failover.mjs, tests/failover/faults.failover.test.ts): three",
        "PostgreSQL nodes under Patroni (etcd, decision 045), synchronous replication to both standbys (decision 026), archiving",
        "to pgBackRest (decision 033), HAProxy routing to the primary by Patroni's `GET /primary`, three app",
        `instances behind their own HAProxy, and ${CUSTOMERS} customers sending transfers one after another and a chat`,
        "message every third turn, while a finance member credits them in turn (one credit in five over the approval",
        "threshold, the rest too once the 24-hour window fills) and a second member approves each credit that waits;",
        "transfers, messages and credits each carry an Idempotency-Key, and every unknown outcome (a broken",
        "connection, a 503 `retryable`) is retried with the same key (an approval: resent, 409 once decided) until",
        "definite (decision 027). Each seed runs every fault once on the same cluster, each from a whole",
        "cluster (one leader, both standbys streaming); a seed moves the fault's moment and picks the standby.",
        "",
        `Run ${new Date().toISOString()} with seeds ${SEEDS[0]} to ${SEEDS.at(-1)} on ${cpus.length} × ${cpus[0]?.model ?? "cpu"}, Node ${process.version}, load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" / ")} at the end: the machine is shared with other work, so these are figures under load.`,
        "",
        summary,
        "",
        overall,
        "",
        "RTO is the time from the fault to the first acknowledged write that was sent after it: what a customer",
        "sees. The frozen and partitioned primaries hold the leader key until it expires (ttl 10 s), so their RTO",
        "is that plus an election; the whole-cluster crash adds three PostgreSQL starts and crash recovery.",
        "",
      ].join("\n"),
    );
  }
}
