import type { FastifyInstance } from "fastify";
import { type ScheduleRunner, startScheduleRunner } from "@/server/features/schedules/schedule-runner";

export type ScheduleRunnerOption = false | { pollMs?: number; now?: () => Date };

/** Every instance runs due schedules (decision 036): started when the app is ready, stopped on close. */
export function registerScheduleRunner(app: FastifyInstance, options: ScheduleRunnerOption = {}): void {
  if (options === false) return;
  let runner: ScheduleRunner | undefined;
  app.addHook("onReady", async () => {
    runner = startScheduleRunner(app.deps, app.log.child({ component: "schedule-runner" }), {
      pollMs: app.deps.config.schedulePollMs,
      ...options,
    });
  });
  app.addHook("onClose", async () => {
    await runner?.stop();
  });
}
