// One deposit-watcher pass as its own process (the kill test SIGKILLs it mid-credit): reads the chain variables
// and DATABASE_URL like the server, prints the pass's report as JSON.
import { loadConfig } from "@/server/config";
import { createPgDatabase } from "@/server/db/client";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";

const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" });
const database = createPgDatabase(config.databaseUrl!, 2);
const report = await watchDepositsOnce(database.db, config.chain!);
console.log(JSON.stringify(report));
await database.close();
