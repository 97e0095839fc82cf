import { useMutation } from "@tanstack/react-query";
import type { RevealDateOfBirthResponse } from "@/contract/audit";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/kyc/{id}/dob/reveal with { reason }: the full date of birth, audited with the reason. */
export function revealDateOfBirth({ id, reason }: { id: string; reason: string }) {
  return apiRequest<RevealDateOfBirthResponse>(
    "POST",
    `/api/admin/kyc/${encodeURIComponent(id)}/dob/reveal`,
    { reason },
  );
}

export function useRevealDateOfBirth() {
  return useMutation({
    mutationFn: revealDateOfBirth,
    // The dialog shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
  });
}
