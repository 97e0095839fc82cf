import type { FastifyInstance, FastifyRequest } from "fastify";
import { SCHEDULE_ENDPOINTS, SCHEDULE_MESSAGES } from "@/contract/schedules";
import { SECURITY_MESSAGES } from "@/contract/security";
import { hasPasskeys, startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { asOptionsResponse } from "@/server/features/auth/second-factor";
import { getStepUpState } from "@/server/features/auth/step-up";
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
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * Schedules send money, which staff never do from the customer side. Runs before each endpoint's own sign-in
 * check (a plugin's hooks come first), so a signed-out request passes here and is answered 401 there.
 */
async function refuseStaff(request: FastifyRequest): Promise<void> {
  if (request.user?.isAdmin) throw new AppError("customers_only", SCHEDULE_MESSAGES.staffCannotSchedule);
}

/** /api/schedules: a customer's scheduled and recurring transfers to saved recipients (decision 036). */
export async function scheduleRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  app.addHook("onRequest", refuseStaff);

  registerEndpoints(app, SCHEDULE_ENDPOINTS, {
    "GET /api/schedules": (request) => findSchedules(db, signedInUser(request).id),
    "GET /api/schedules/upcoming": (request) => findUpcomingRuns(db, signedInUser(request).id),
    "POST /api/schedules": async (request, reply) => {
      const user = signedInUser(request);
      const steppedUp = request.session ? (await getStepUpState(db, user.id, request.session)).fresh : false;
      const { schedule, replayed } = await createSchedule(deps, { id: user.id, steppedUp }, request.body);
      if (replayed) reply.header("idempotent-replayed", "true");
      return { message: SCHEDULE_MESSAGES.created, schedule };
    },
    "POST /api/schedules/passkey-options": async (request) => {
      const user = signedInUser(request);
      if (!(await hasPasskeys(db, user.id))) throw new AppError("no_passkey", SECURITY_MESSAGES.noPasskey);
      const binding = await bindingOfSchedule(db, user, request.body, new Date());
      return asOptionsResponse(
        await startPasskeyProof(deps, { userId: user.id, purpose: "transfer", binding }),
      );
    },
    "PATCH /api/schedules/:id": async (request) => ({
      message: SCHEDULE_MESSAGES.updated,
      schedule: await editSchedule(deps, signedInUser(request).id, request.params.id, request.body),
    }),
    // Pausing or resuming changes when money leaves, so it asks for the same fresh step-up as an edit (decision 036).
    "POST /api/schedules/:id/pause": async (request) => ({
      message: SCHEDULE_MESSAGES.paused,
      schedule: await pauseSchedule(deps, signedInUser(request).id, request.params.id),
    }),
    "POST /api/schedules/:id/resume": async (request) => ({
      message: SCHEDULE_MESSAGES.resumed,
      schedule: await resumeSchedule(deps, signedInUser(request).id, request.params.id),
    }),
    "POST /api/schedules/:id/cancel": async (request) => ({
      message: SCHEDULE_MESSAGES.cancelled,
      schedule: await cancelSchedule(deps, signedInUser(request).id, request.params.id),
    }),
  });
}
