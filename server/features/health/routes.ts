import fs from "node:fs";
import os from "node:os";
import type { FastifyInstance } from "fastify";
import { liveness, livenessFailure, readiness, readinessFailure } from "@/contract/health";
import type { ProcessHealth } from "@/server/lib/process-health";

/** One open and close of the null device: proves the process can still get a file descriptor, in microseconds. */
async function canOpenDescriptor(health: ProcessHealth): Promise<boolean> {
  try {
    const handle = await fs.promises.open(os.devNull, "r");
    await handle.close();
    return true;
  } catch (err) {
    health.note(err);
    return false;
  }
}

export async function healthRoutes(app: FastifyInstance) {
  // Liveness: unhealthy only for what a restart fixes (out of file descriptors now or in the last 30 s, e.g.
  // when the pool could not open a socket). A database that is down is /readyz's answer: restarting every
  // instance during a database outage would not bring it back.
  app.get(
    "/healthz",
    { schema: { response: { 200: liveness, 503: livenessFailure } } },
    async (request, reply) => {
      if ((await canOpenDescriptor(app.processHealth)) && !app.processHealth.isStarved())
        return { status: "ok" };
      return reply.status(503).send({
        status: "unhealthy",
        message: "The process cannot open files or sockets",
        code: "UNAVAILABLE",
        requestId: request.id,
      });
    },
  );

  app.get(
    "/readyz",
    { schema: { response: { 200: readiness, 503: readinessFailure } } },
    async (_request, reply) => {
      try {
        await app.deps.database.ping();
        return { status: "ready" };
      } catch {
        return reply.status(503).send({ status: "unavailable", message: "Database is not reachable" });
      }
    },
  );
}
