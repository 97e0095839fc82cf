import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateScheduleInput, ScheduleResponse } from "@/contract/schedules";
import { SCHEDULES_KEY, UPCOMING_RUNS_KEY } from "@/web/features/schedules/api/find-schedules";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

function refreshSchedules(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY });
  void queryClient.invalidateQueries({ queryKey: UPCOMING_RUNS_KEY });
}

/**
 * POST /api/schedules. A customer with a second factor verifies in the app's step-up dialog (a code or a passkey),
 * then the same form, with the same request key, is sent again: a double click never makes two schedules.
 */
export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<CreateScheduleInput, "secondFactor">) =>
      withStepUp(() => apiRequest<ScheduleResponse>("POST", "/api/schedules", input)),
    onSuccess: () => refreshSchedules(queryClient),
  });
}

export type ScheduleAction = "pause" | "resume" | "cancel";

/** POST /api/schedules/:id/pause | resume | cancel. */
export function useChangeSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ScheduleAction }) =>
      apiRequest<ScheduleResponse>("POST", `/api/schedules/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => refreshSchedules(queryClient),
  });
}
