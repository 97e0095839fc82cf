import { useMutation } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/kyc/{id}/dob/reveal with { reason }: the full date of birth, audited with the reason. */
export function revealDateOfBirth({ id, reason }: { id: string; reason: string }) {
  return callEndpoint("POST /api/admin/kyc/:id/dob/reveal", { params: { id }, body: { reason } });
}

export function useRevealDateOfBirth() {
  return useMutation({
    mutationFn: revealDateOfBirth,
    // The dialog shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
  });
}
