// The ceiling on this machine: a bare Fastify server answering fixed JSON, no plugins, no database.
import Fastify from "fastify";

const app = Fastify({ logger: false });
const body = { ok: true, service: "baseline", items: [1, 2, 3] };
app.get("/", async () => body);
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
