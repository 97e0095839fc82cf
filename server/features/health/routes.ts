import type { FastifyInstance } from "fastify";

export async function healthRoutes(app: FastifyInstance) {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    try {
      await app.deps.database.ping();
      return { status: "ready" };
    } catch {
      return reply.status(503).send({ status: "unavailable", message: "Database is not reachable" });
    }
  });
}
