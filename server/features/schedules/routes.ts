import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  createScheduleInput,
  editScheduleInput,
  SCHEDULE_MESSAGES,
  scheduleIdParams,
  scheduleList,
  schedulePasskeyOptionsInput,
  scheduleResponse,
  upcomingRuns,
} from "@/contract/schedules";
import { passkeyOptionsResponse, SECURITY_MESSAGES } from "@/contract/security";
import { hasPasskeys, startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { asOptionsResponse } from "@/server/features/auth/second-factor";
import { getStepUpState, requireFreshStepUp } from "@/server/features/auth/step-up";
import {
  bindingOfSchedule,
  cancelSchedule,
  createSchedule,
  editSchedule,
  findSchedules,
  findUpcomingRuns,
  pauseSchedule,
  resumeSchedule,
} from "@/server/features/schedules/manage-schedules";
import { AppError } from "@/server/lib/errors";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Schedules send money, which staff never do from the customer side. */
async function requireCustomer(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (request.user?.isAdmin) throw new AppError("customers_only", SCHEDULE_MESSAGES.staffCannotSchedule);
}

/** /api/schedules: a customer's scheduled and recurring transfers to saved recipients (decision 036). */
export async function scheduleRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  app.addHook("onRequest", requireCustomer);
  const changes = keyedLimit(app, {
    name: "schedule-change",
    max: 30,
    key: (request) => request.user?.id ?? null,
  });
  const params = scheduleIdParams;

  app.get("/schedules", { schema: { response: { 200: scheduleList } } }, (request) =>
    findSchedules(db, signedInUser(request).id),
  );

  app.get("/schedules/upcoming", { schema: { response: { 200: upcomingRuns } } }, (request) =>
    findUpcomingRuns(db, signedInUser(request).id),
  );

  app.post(
    "/schedules",
    { schema: { body: createScheduleInput, response: { 201: scheduleResponse } }, preHandler: changes },
    async (request, reply) => {
      const user = signedInUser(request);
      const steppedUp = request.session ? (await getStepUpState(db, user.id, request.session)).fresh : false;
      const { schedule, replayed } = await createSchedule(deps, { id: user.id, steppedUp }, request.body);
      if (replayed) reply.header("idempotent-replayed", "true");
      return reply.status(201).send({ message: SCHEDULE_MESSAGES.created, schedule });
    },
  );

  app.post(
    "/schedules/passkey-options",
    {
      schema: { body: schedulePasskeyOptionsInput, response: { 200: passkeyOptionsResponse } },
      preHandler: changes,
    },
    async (request) => {
      const user = signedInUser(request);
      if (!(await hasPasskeys(db, user.id))) throw new AppError("no_passkey", SECURITY_MESSAGES.noPasskey);
      const binding = await bindingOfSchedule(db, user, request.body, new Date());
      return asOptionsResponse(
        await startPasskeyProof(deps, { userId: user.id, purpose: "transfer", binding }),
      );
    },
  );

  app.patch(
    "/schedules/:id",
    {
      schema: { params, body: editScheduleInput, response: { 200: scheduleResponse } },
      preHandler: [changes, requireFreshStepUp],
    },
    async (request) => ({
      message: SCHEDULE_MESSAGES.updated,
      schedule: await editSchedule(deps, signedInUser(request).id, request.params.id, request.body),
    }),
  );

  // Pausing or resuming changes when money leaves, so it asks for the same fresh step-up as an edit (issue 46 §33).
  app.post(
    "/schedules/:id/pause",
    { schema: { params, response: { 200: scheduleResponse } }, preHandler: [changes, requireFreshStepUp] },
    async (request) => ({
      message: SCHEDULE_MESSAGES.paused,
      schedule: await pauseSchedule(deps, signedInUser(request).id, request.params.id),
    }),
  );

  app.post(
    "/schedules/:id/resume",
    { schema: { params, response: { 200: scheduleResponse } }, preHandler: [changes, requireFreshStepUp] },
    async (request) => ({
      message: SCHEDULE_MESSAGES.resumed,
      schedule: await resumeSchedule(deps, signedInUser(request).id, request.params.id),
    }),
  );

  app.post(
    "/schedules/:id/cancel",
    { schema: { params, response: { 200: scheduleResponse } }, preHandler: changes },
    async (request) => ({
      message: SCHEDULE_MESSAGES.cancelled,
      schedule: await cancelSchedule(deps, signedInUser(request).id, request.params.id),
    }),
  );
}
