import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  CreateScheduleInput,
  EditScheduleInput,
  SchedulePasskeyOptionsInput,
} from "@/contract/schedules";
import { SCHEDULES_KEY, UPCOMING_RUNS_KEY } from "@/web/features/schedules/api/find-schedules";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

function refreshSchedules(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY });
  void queryClient.invalidateQueries({ queryKey: UPCOMING_RUNS_KEY });
}

/**
 * POST /api/schedules. A customer with a second factor is answered step_up_required (nothing written); the form
 * then asks for a proof that travels in the schedule's own body: a code, or a passkey that signs exactly these
 * fields. The same request key answers the first schedule, so a double click never makes two.
 */
export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateScheduleInput) => callEndpoint("POST /api/schedules", { body: input }),
    onSuccess: () => refreshSchedules(queryClient),
  });
}

/** POST /api/schedules/passkey-options: a WebAuthn challenge derived from exactly this schedule's fields. */
export function getSchedulePasskeyOptions(input: SchedulePasskeyOptionsInput) {
  return callEndpoint("POST /api/schedules/passkey-options", { body: input });
}

/** PATCH /api/schedules/:id: needs this session's fresh step-up, asked for in the app's "Verify it's you". */
export function useEditSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, edit }: { id: string; edit: EditScheduleInput }) =>
      withStepUp(() => callEndpoint("PATCH /api/schedules/:id", { params: { id }, body: edit })),
    onSuccess: () => refreshSchedules(queryClient),
  });
}

export type ScheduleAction = "pause" | "resume" | "cancel";

/**
 * POST /api/schedules/:id/pause | resume | cancel. Pause and resume need this session's fresh step-up, as an edit
 * does; cancelling only stops money leaving, so the server asks for none (withStepUp asks only when told to).
 */
export function useChangeSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ScheduleAction }) =>
      withStepUp(() => callEndpoint(`POST /api/schedules/:id/${action}`, { params: { id } })),
    onSuccess: () => refreshSchedules(queryClient),
  });
}
