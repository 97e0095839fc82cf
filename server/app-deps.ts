import type { Config } from "@/server/config";
import type { Database } from "@/server/db/client";
import type { JobsRoom } from "@/server/jobs/start";
import type { ProcessHealth } from "@/server/lib/process-health";
import type { ObjectStorage } from "@/server/lib/storage/storage";

/** What every request handler and service function may reach: config, database and file storage. */
export interface AppDeps {
  config: Config;
  database: Database;
  /** Uploaded files (local disk or S3); buildApp creates it from config.storage when not given. */
  storage: ObjectStorage;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
    /** Whether this process ran out of file descriptors lately (/healthz). */
    processHealth: ProcessHealth;
    /** The jobs room: the LISTEN hub, the event-log consumers and the background loops (server/jobs/). */
    jobs: JobsRoom;
    /** The open-connection cap this instance applies (MAX_CONNECTIONS, lowered to fit the descriptors). */
    maxConnections: number;
  }
}
