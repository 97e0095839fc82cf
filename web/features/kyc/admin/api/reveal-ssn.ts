import { useMutation } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/kyc/{id}/ssn/reveal with { reason }: the full SSN, audited with the reason. */
export function revealSsn({ id, reason }: { id: string; reason: string }) {
  return callEndpoint("POST /api/admin/kyc/:id/ssn/reveal", { params: { id }, body: { reason } });
}

export function useRevealSsn() {
  return useMutation({
    mutationFn: revealSsn,
    // The dialog shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
  });
}
