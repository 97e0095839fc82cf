import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "@/contract/auth";
import { SESSIONS_KEY } from "@/web/features/auth/api/get-sessions";
import { apiRequest } from "@/web/lib/api";

/** DELETE /api/auth/sessions: signs out every session except this one. */
export function revokeOtherSessions() {
  return apiRequest<MessageResponse>("DELETE", "/api/auth/sessions");
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
