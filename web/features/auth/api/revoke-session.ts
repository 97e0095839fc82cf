import { useMutation, useQueryClient } from "@tanstack/react-query";
import { SESSIONS_KEY } from "@/web/features/auth/api/get-sessions";
import { callEndpoint } from "@/web/lib/api";

/** DELETE /api/auth/sessions/:id: signs one other device out. */
export function revokeSession(id: string) {
  return callEndpoint("DELETE /api/auth/sessions/:id", { params: { id } });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    // Not awaited: the signed-out row unmounts once the list refetches, and the caller's toast must fire first.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
}
