import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateKycInput } from "@/contract/kyc";
import { KYC_STATUS_KEY } from "@/web/features/kyc/api/get-kyc-status";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/kyc/create with the whole application; errors may carry `phoneNumberRequired` or `ssnDuplicate`. */
export function createKycApplication(input: CreateKycInput) {
  return callEndpoint("POST /api/kyc/create", { body: input });
}

export function useCreateKycApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createKycApplication,
    // Spec §2 /apply-checking: signed out here means an Unauthorized toast and /.
    meta: { on401: "home" },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KYC_STATUS_KEY }),
  });
}
