// `npm run cli -- <command>`: operator commands against the configured database (DATABASE_URL or ./data).
import { loadConfig } from "@/server/config";
import { createDatabase } from "@/server/db/client";
import { grantAdmin } from "@/server/features/admin/grant-admin";

const USAGE = `usage: npm run cli -- <command>

commands:
  admin:grant <email>   make a verified account an admin`;

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help") {
    console.info(USAGE);
    return 0;
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
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
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
