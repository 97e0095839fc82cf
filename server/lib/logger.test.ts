import { Writable } from "node:stream";
import Fastify from "fastify";
import { describe, expect, it, vi } from "vitest";
import { DevelopmentLogController, loggerOptions, type PrettyFactory } from "@/server/lib/logger";

/** A stream that keeps each JSON line pino writes to it. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

async function serve(options: Awaited<ReturnType<typeof loggerOptions>>) {
  const app = Fastify(options);
  app.get("/api/account", async () => ({ ok: true }));
  app.get("/api/poll", async (_request, reply) => reply.status(304).send());
  app.get("/api/broken", async (_request, reply) => reply.status(500).send({ message: "no" }));
  app.get("/healthz", async () => ({ status: "ok" }));
  await app.ready();
  for (const url of ["/api/account", "/api/poll", "/api/broken", "/healthz", "/nowhere"]) {
    await app.inject({ url });
  }
  await app.close();
}

describe("logger options", () => {
  it("production and tests keep pino's JSON lines, two per request, and never load pino-pretty", async () => {
    for (const env of ["production", "test"] as const) {
      const loadPretty = vi.fn();
      const options = await loggerOptions({ env, logLevel: "info" }, loadPretty);
      expect(options).toEqual({ logger: { level: "info" } });
      expect(loadPretty).not.toHaveBeenCalled();

      const { lines, stream } = capture();
      await serve({ logger: { level: "info", stream } });
      const account = lines.filter((l) => (l.req as { url?: string })?.url === "/api/account");
      expect(account.map((l) => l.msg)).toEqual(["incoming request"]);
      expect(lines.filter((l) => l.msg === "request completed")).toHaveLength(5);
    }
  });

  it("development writes through pino-pretty, one line per request, polls answered 304 and probes at debug", async () => {
    const { lines, stream } = capture();
    const pretty = vi.fn<PrettyFactory>(() => stream);
    const options = await loggerOptions({ env: "development", logLevel: "info" }, async () => pretty);
    expect(pretty).toHaveBeenCalledWith(expect.objectContaining({ sync: true, singleLine: true }));
    expect(options.logController).toBeInstanceOf(DevelopmentLogController);

    await serve(options);
    expect(lines.map((l) => [l.level, String(l.msg).replace(/\d+ms$/, "…ms")])).toEqual([
      [30, "GET /api/account 200 …ms"],
      [50, "GET /api/broken 500 …ms"],
      [30, "GET /nowhere 404 …ms"],
    ]);

    // At LOG_LEVEL=debug the quiet ones are there too.
    const debug = capture();
    await serve({
      ...(await loggerOptions({ env: "development", logLevel: "debug" }, async () => () => debug.stream)),
    });
    expect(
      debug.lines.filter((l) => l.level === 20).map((l) => String(l.msg).split(" ").slice(0, 3)),
    ).toEqual([
      ["GET", "/api/poll", "304"],
      ["GET", "/healthz", "200"],
    ]);
  });

  it("development without pino-pretty installed still logs, as JSON, one line per request", async () => {
    const options = await loggerOptions({ env: "development", logLevel: "warn" }, async () => undefined);
    expect(options.logger).toEqual({ level: "warn" });
    expect(options.logController).toBeInstanceOf(DevelopmentLogController);
  });
});
