import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import type { Config } from "@/server/config";

/**
 * Development's request log: one line per answered request ("GET /api/account 200 3ms") instead of
 * Fastify's "incoming request" and "request completed" pair, and the dashboard's polls answered 304 and
 * the health probes only at debug level, so a developer's terminal shows what happened, not the polling.
 */
export class DevelopmentLogController extends LogController {
  override incomingRequest(): void {}

  /** A 404's own line says so: no second "Route GET:/x not found" line. */
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const line = `${request.method} ${request.url} ${status} ${Math.round(reply.elapsedTime)}ms`;
    if (error || status >= 500) reply.log.error(error ? { err: error } : {}, line);
    else if (isQuiet(request, status)) reply.log.debug(line);
    else reply.log.info(line);
  }
}

const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/** A 304 is a poll that found nothing new; probes run every few seconds. */
export function isQuiet(request: Pick<FastifyRequest, "url">, status: number): boolean {
  return status === 304 || PROBES.has(request.url.split("?")[0] ?? "");
}

type LoggerOptions = Pick<FastifyServerOptions, "logger" | "logController">;

/**
 * Production and tests: pino's JSON lines, one "incoming request" and one "request completed" per request,
 * unchanged (log shippers and tests read them). Development: the same logger, written by pino-pretty as
 * one coloured line per entry, with the quieter request lines above. pino-pretty is a devDependency:
 * the compiled server imports it only outside production and falls back to JSON when it is not installed.
 */
export async function loggerOptions(
  config: Pick<Config, "env" | "logLevel">,
  loadPretty: () => Promise<PrettyFactory | undefined> = importPretty,
): Promise<LoggerOptions> {
  if (config.env !== "development") return { logger: { level: config.logLevel } };
  const pretty = await loadPretty();
  return {
    logger: pretty
      ? {
          level: config.logLevel,
          stream: pretty({
            // Written in this thread, so a line is out before a crash (no transport worker).
            sync: true,
            colorize: Boolean(process.stdout.isTTY),
            translateTime: "SYS:HH:MM:ss.l",
            ignore: "pid,hostname,reqId",
            singleLine: true,
          }),
        }
      : { level: config.logLevel },
    logController: new DevelopmentLogController(),
  };
}

export type PrettyFactory = (options: {
  sync: boolean;
  colorize: boolean;
  translateTime: string;
  ignore: string;
  singleLine: boolean;
}) => NodeJS.WritableStream;

async function importPretty(): Promise<PrettyFactory | undefined> {
  try {
    // A variable specifier: the compiled server keeps it as a runtime import, never bundles it.
    const name = "pino-pretty";
    const module = (await import(name)) as { default: PrettyFactory };
    return module.default;
  } catch {
    return undefined;
  }
}
