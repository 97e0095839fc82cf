import { useMutation, useQueryClient } from "@tanstack/react-query";
import { SESSIONS_KEY } from "@/web/features/auth/api/get-sessions";
import { callEndpoint } from "@/web/lib/api";

/** DELETE /api/auth/sessions: signs out every session except this one. */
export function revokeOtherSessions() {
  return callEndpoint("DELETE /api/auth/sessions");
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    // Not awaited: the signed-out row unmounts once the list refetches, and the caller's toast must fire first.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
}
