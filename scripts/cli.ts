// `npm run cli -- <command>`: operator commands against the configured database (DATABASE_URL or ./data).
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { STAFF_ROLES, staffRole } from "@/contract/staff";
import { checkDatabase, restoreToPoint } from "@/scripts/restore-check";
import { loadConfig } from "@/server/config";
import { createDatabase } from "@/server/db/client";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { listFileName } from "@/server/features/compliance/parse-ofac";
import { runRescreenToEnd } from "@/server/features/compliance/rescreen";
import { accrueInterestThrough, lastClosedDay } from "@/server/features/savings/interest";
import { grantStaffRoles } from "@/server/features/staff/grant-staff-roles";
import { buildPub1220File } from "@/server/features/statements/pub-1220";
import { computeStatementDigest } from "@/server/features/statements/statement-data";
import { runStatementsToEnd } from "@/server/features/statements/statement-run";
import { runTaxFormsToEnd } from "@/server/features/statements/tax-form-run";
import { sweepExpired } from "@/server/lib/housekeeping";
import { verifyLedger } from "@/server/lib/ledger";
import { createStorage } from "@/server/lib/storage/create-storage";

const USAGE = `usage: npm run cli -- <command>

commands:
  staff:grant <email> <role…>
                        give a verified account back-office roles: support, compliance, finance, owner
  admin:grant <email>   the same as staff:grant <email> owner
  ledger:verify         recompute every balance from postings and report any drift (exit 1 on drift)
  housekeeping:sweep    delete expired sessions, old one-time codes, idempotency keys, sent mail and unused uploads now
                        (the server also does this at start and every 15 minutes)
  seed:demo             outside production: an owner, an approved customer with history and a pending KYC,
                        made through the app's own routes (prints their e-mails and password)
  sanctions:load <dir>  load OFAC's SDN.CSV, ALT.CSV, ADD.CSV (and CONS_PRIM/ALT/ADD.CSV) from <dir> as a new list
                        version, then run its re-screen job (every customer, saved and in-flight address, in batches,
                        with progress) to the end here (exit 1, old list kept, on a bad file)
  sanctions:search      read one JSON object a line on stdin, {"name": "…", "dob": "YYYY-MM-DD" | null,
                        "type": "person" | "entity" | null}, and print one JSON line for each with the active list's
                        matches at or above the screening threshold (entNum, listed name, score); a bad line prints
                        {"line": n, "error": "…"} and the rest go on (exit 1 when any line was bad)
  statement:verify <userId> <YYYY-MM> <digest>
                        recompute a monthly statement's ledger digest from the ledger and compare it with
                        the one printed on a customer's copy (exit 1 when they differ)
  statements:run --month <YYYY-MM>
                        compute and store every customer's statement for a closed month (the month-end run the
                        server starts itself after each month), in batches, printing progress; run twice, it
                        writes nothing new, and a run killed mid-way goes on from where it stopped
  interest:accrue [--through <YYYY-MM-DD>]
                        accrue savings interest for every New York day through the given one (default: the last day
                        whose balances are final) and credit every month accrued to its end, in batches, printing
                        progress; run twice, it writes nothing new, and a run killed mid-way goes on from where it
                        stopped (refused for a day not over yet)
  tax:1099 --year <YYYY> [--pub1220 <file>] [--corrections] [--test]
                        issue the year's Form 1099-INT to every customer paid $10.00 or more of savings interest in it
                        (a CORRECTED form to each whose amount changed since the last run), in batches, printing
                        progress; run twice, it issues nothing new. Refused while the year is open (New York) or its
                        interest not all credited. --pub1220 writes the IRS file (Publication 1220) of the originals,
                        or with --corrections of the corrected returns; --test marks it a test file
  db:restore-check [--target "<YYYY-MM-DD HH:MM:SS+00>"] [--stanza <name>] [--config <file>] [--database <name>] [--keep]
                        restore pgBackRest's latest backup and its archived WAL up to the target instant (default: the
                        end of the archive) into a scratch PostgreSQL on a free port, then run ledger:verify and recompute
                        every statement digest there (exit 1 on drift); --keep leaves it running and prints its URL.
                        Stanza "pillar" and pgBackRest's own config file unless named; the database is DATABASE_URL's`;

const COMMANDS = new Set([
  "staff:grant",
  "admin:grant",
  "ledger:verify",
  "housekeeping:sweep",
  "statement:verify",
  "statements:run",
  "interest:accrue",
  "tax:1099",
  "seed:demo",
  "sanctions:load",
  "sanctions:search",
  "db:restore-check",
]);

/** The OFAC files in a directory (names in any case); other files are left alone. */
async function readListDirectory(dir: string): Promise<{ name: string; bytes: Uint8Array }[]> {
  const names = (await fs.readdir(dir)).filter((name) => listFileName(name) !== null);
  if (names.length === 0)
    throw new Error(
      `${dir} holds none of SDN.CSV, ALT.CSV, ADD.CSV, CONS_PRIM.CSV, CONS_ALT.CSV, CONS_ADD.CSV`,
    );
  return Promise.all(names.map(async (name) => ({ name, bytes: await fs.readFile(path.join(dir, name)) })));
}

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help") {
    console.info(USAGE);
    return 0;
  }
  if (!COMMANDS.has(command)) {
    console.error(`Unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  // Never opens the live database: everything happens on the restored copy.
  if (command === "db:restore-check") return restoreCheck(args, config.databaseUrl);
  const database = await createDatabase(config, `CLI command (${command})`);
  try {
    await database.migrate();
    switch (command) {
      case "staff:grant":
      case "admin:grant": {
        const [email, ...roleNames] = args;
        if (!email) throw new Error(`${command} needs an e-mail address`);
        const roles = command === "admin:grant" ? ["owner"] : roleNames;
        const parsed = z.array(staffRole).min(1).safeParse(roles);
        if (!parsed.success) {
          throw new Error(`staff:grant needs one or more roles out of: ${STAFF_ROLES.join(", ")}`);
        }
        const user = await grantStaffRoles(database.db, email, parsed.data);
        console.info(`${user.email} now holds: ${user.staffRoles.join(", ")}.`);
        return 0;
      }
      case "ledger:verify": {
        // Progress on stderr, one line a phase overwritten in place: at a million customers this runs for minutes.
        let lastPhase = "";
        const report = await verifyLedger(database.db, {
          onProgress: ({ phase, done }) => {
            if (lastPhase && phase !== lastPhase) process.stderr.write("\n");
            lastPhase = phase;
            process.stderr.write(`\rledger:verify: ${done.toLocaleString("en-US")} ${phase} checked`);
          },
        });
        if (lastPhase) process.stderr.write("\n");
        console.info(`${report.entries} journal entries, ${report.accounts} ledger accounts checked.`);
        for (const problem of report.problems) console.error(`drift: ${problem}`);
        console.info(
          report.ok ? "Ledger verified: no drift." : `${report.problems.length} problem(s) found.`,
        );
        return report.ok ? 0 : 1;
      }
      case "housekeeping:sweep": {
        const storage = createStorage(config);
        const report = await sweepExpired(database.db, storage).finally(() => storage.close());
        console.info(
          `Deleted ${report.sessions} expired session(s), ${report.oneTimeCodes} one-time code(s), ` +
            `${report.idempotencyKeys} idempotency key(s), ${report.sentMail} sent e-mail(s), ` +
            `${report.authChallenges} sign-in challenge(s), ${report.freezeLinks} expired freeze link(s) ` +
            `${report.partialUploads} half-written upload(s) and ${report.unattachedUploads} upload(s) no application used.`,
        );
        return 0;
      }
      case "seed:demo": {
        const { seedDemo } = await import("@/scripts/seed-demo");
        for (const line of await seedDemo(config, database)) console.info(line);
        return 0;
      }
      case "sanctions:load": {
        const [dir] = args;
        if (!dir) throw new Error("sanctions:load needs the directory holding OFAC's files");
        const files = await readListDirectory(dir);
        const list = await loadSanctionsList(database.db, files, {
          actorId: null,
          actorRole: null,
          source: "cli",
        });
        console.info(
          `List version ${list.version} is active: ${list.entryCount} entries, ${list.nameCount} names, ` +
            `${list.addressCount} digital currency addresses.`,
        );
        for (const f of list.files)
          console.info(`  ${f.name}: ${f.records} records, ${f.bytes} bytes, sha256 ${f.sha256}`);
        // The same job the server's jobs room runs (a server running meanwhile shares the batches): run here
        // to the end, so the command's report is the whole re-screen's.
        const report = await runRescreenToEnd(database.db, config.sanctionsNameThreshold, list.id, {
          onBatch: (run) =>
            console.info(`  re-screened ${run.customers} of ${run.total ?? "?"} customer(s)…`),
        });
        console.info(
          report.status === "superseded"
            ? "A newer list was loaded meanwhile: its own re-screen replaces this one."
            : `Re-screened ${report.customers} customer(s) and ${report.addresses} address(es): ${report.newHits} new hit(s).`,
        );
        return 0;
      }
      case "sanctions:search": {
        const { searchLines } = await import("@/scripts/sanctions-search");
        // Awaited here: the finally below closes the database.
        return await searchLines(database.db, config.sanctionsNameThreshold, process.stdin, (line) =>
          process.stdout.write(`${line}\n`),
        );
      }
      case "statements:run": {
        const { values } = parseArgs({ args, options: { month: { type: "string" } } });
        if (!values.month) throw new Error("statements:run needs --month YYYY-MM");
        const startedAt = Date.now();
        const run = await runStatementsToEnd(database.db, values.month, {
          onBatch: ({ done, total }) => {
            const seconds = (Date.now() - startedAt) / 1000;
            console.info(
              `  ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} customer(s) ` +
                `(${total ? Math.floor((100 * done) / total) : 100} %, ${Math.round(done / Math.max(seconds, 0.001))}/s)…`,
            );
          },
        });
        console.info(
          `Statements for ${run.month}: ${run.done.toLocaleString("en-US")} customer(s), ` +
            `${run.savingsDone.toLocaleString("en-US")} of ${run.savingsTotal.toLocaleString("en-US")} savings ` +
            `account(s), run ${run.status} (started ${run.startedAt}, finished ${run.finishedAt}).`,
        );
        // Savings statements wait for the month's interest credit (decision 069): run interest:accrue, then again.
        if (run.status !== "done")
          console.info("Savings statements wait for the month's interest credit: run interest:accrue first.");
        return 0;
      }
      case "tax:1099": {
        const { values } = parseArgs({
          args,
          options: {
            year: { type: "string" },
            pub1220: { type: "string" },
            corrections: { type: "boolean" },
            test: { type: "boolean" },
          },
        });
        if (!values.year || !/^\d{4}$/.test(values.year)) throw new Error("tax:1099 needs --year YYYY");
        const year = Number(values.year);
        const run = await runTaxFormsToEnd(database.db, config.taxPayer, year, {
          onBatch: (r) =>
            console.info(
              `  ${r.done.toLocaleString("en-US")} of ${r.total.toLocaleString("en-US")} customers…`,
            ),
        });
        console.info(
          `Form 1099-INT ${year}, run ${run.runNumber}: ${run.formsIssued} form(s) issued, ` +
            `${run.corrections} correction(s), ${run.done} customer(s) looked at.`,
        );
        if (values.pub1220) {
          const file = await buildPub1220File(database.db, config.dataKey, config.taxPayer, {
            year,
            file: values.corrections ? "corrections" : "original",
            test: values.test ?? false,
          });
          await fs.writeFile(values.pub1220, file.text, "ascii");
          console.info(
            `Publication 1220 file ${values.pub1220}: ${file.payees} payee(s), ${formatMoney(file.totalCents)}.`,
          );
        }
        return 0;
      }
      case "interest:accrue": {
        const { values } = parseArgs({ args, options: { through: { type: "string" } } });
        const final = lastClosedDay();
        const through = values.through ?? final;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(through))
          throw new Error("interest:accrue needs --through YYYY-MM-DD");
        if (through > final)
          throw new Error(
            `${through} is not over yet (with its grace hour): the last day that can accrue is ${final}`,
          );
        const startedAt = Date.now();
        const report = await accrueInterestThrough(database.db, through, {
          onPass: ({ kind, on, done }) => {
            if (done > 0)
              console.info(`  ${kind === "credit" ? "credited" : "accrued"} ${on}: ${done} account(s)…`);
          },
        });
        console.info(
          `Interest through ${through}: ${report.accountDays.toLocaleString("en-US")} account-day(s) accrued, ` +
            `${report.accountsCredited.toLocaleString("en-US")} credit(s) over ` +
            `${report.monthsCredited} month(s), in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`,
        );
        return 0;
      }
      case "statement:verify": {
        const [userId, month, printed] = args;
        if (!userId || !month || !printed)
          throw new Error("statement:verify needs <userId> <YYYY-MM> <digest>");
        const { summary, digest } = await computeStatementDigest(database.db, userId, month);
        console.info(
          `${month}: opening ${formatMoney(summary.opening)}, closing ${formatMoney(summary.closing)}, ` +
            `${summary.count} movement(s), digest ${digest}.`,
        );
        const matches = digest === printed.trim().toUpperCase();
        console.info(
          matches
            ? "Statement verified: the digest matches the ledger."
            : "Digest does NOT match the ledger.",
        );
        return matches ? 0 : 1;
      }
      default:
        return 2;
    }
  } finally {
    await database.close();
  }
}

/** `db:restore-check`: see USAGE and scripts/restore-check.ts. */
async function restoreCheck(args: string[], databaseUrl: string | undefined): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      target: { type: "string" },
      stanza: { type: "string", default: "pillar" },
      config: { type: "string" },
      database: { type: "string" },
      keep: { type: "boolean", default: false },
    },
  });
  const database =
    values.database ?? (databaseUrl ? decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) : "");
  if (!database) throw new Error("db:restore-check needs --database <name> (or a DATABASE_URL naming one)");
  const started = Date.now();
  const restored = await restoreToPoint({
    stanza: values.stanza,
    configFile: values.config,
    target: values.target,
  });
  try {
    console.info(
      `Restored stanza ${values.stanza} to ${values.target ?? "the end of the archive"} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    const report = await checkDatabase(restored.url(database));
    console.info(`${report.entries} journal entries, ${report.accounts} ledger accounts checked.`);
    for (const problem of report.problems) console.error(`drift: ${problem}`);
    console.info(
      report.ledgerOk ? "Ledger verified: no drift." : `${report.problems.length} problem(s) found.`,
    );
    for (const s of report.statements) console.info(`statement ${s.userId} ${s.month} ${s.digest}`);
    console.info(
      `${report.statements.length} statement(s) recomputed; all together ${report.statementsDigest}.`,
    );
    if (values.keep) console.info(`Kept running: ${restored.url(database)} (data in ${restored.dir})`);
    return report.ledgerOk ? 0 : 1;
  } finally {
    if (!values.keep) await restored.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
