// `npm run cli -- <command>`: operator commands against the configured database (DATABASE_URL or ./data).
import { formatMoney } from "@/contract/money";
import { loadConfig } from "@/server/config";
import { createDatabase } from "@/server/db/client";
import { grantAdmin } from "@/server/features/admin/grant-admin";
import { computeStatementDigest } from "@/server/features/statements/statement-data";
import { sweepExpired } from "@/server/lib/housekeeping";
import { verifyLedger } from "@/server/lib/ledger";
import { createStorage } from "@/server/lib/storage/create-storage";

const USAGE = `usage: npm run cli -- <command>

commands:
  admin:grant <email>   make a verified account an admin
  ledger:verify         recompute every balance from postings and report any drift (exit 1 on drift)
  housekeeping:sweep    delete expired sessions, old one-time codes, idempotency keys, sent mail and unused uploads now
                        (the server also does this at start and every 15 minutes)
  statement:verify <userId> <YYYY-MM> <digest>
                        recompute a monthly statement's ledger digest from the ledger and compare it with
                        the one printed on a customer's copy (exit 1 when they differ)`;

const COMMANDS = new Set(["admin:grant", "ledger:verify", "housekeeping:sweep", "statement:verify"]);

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
  const database = await createDatabase(config);
  try {
    await database.migrate();
    switch (command) {
      case "admin:grant": {
        if (!args[0]) throw new Error("admin:grant needs an e-mail address");
        const user = await grantAdmin(database.db, args[0]);
        console.info(`${user.email} is now an admin.`);
        return 0;
      }
      case "ledger:verify": {
        const report = await verifyLedger(database.db);
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
