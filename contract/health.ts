import { z } from "zod";

/** GET /healthz 200: the process can still open files and sockets. */
export const liveness = z.object({ status: z.literal("ok") });
export type Liveness = z.infer<typeof liveness>;

/** GET /healthz 503: out of file descriptors now or in the last 30 s (a restart fixes it). */
export const livenessFailure = z.object({
  status: z.literal("unhealthy"),
  message: z.string(),
  code: z.literal("UNAVAILABLE"),
  requestId: z.string(),
});

/** GET /readyz 200: the database answers. */
export const readiness = z.object({ status: z.literal("ready") });
export type Readiness = z.infer<typeof readiness>;

/** GET /readyz 503: the database does not answer. */
export const readinessFailure = z.object({ status: z.literal("unavailable"), message: z.string() });
