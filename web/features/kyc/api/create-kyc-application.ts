import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateKycInput, CreateKycResponse } from "@/contract/kyc";
import { apiRequest } from "@/web/lib/api";
import { KYC_STATUS_KEY } from "@/web/lib/kyc-status";

/** POST /api/kyc/create with the whole application; errors may carry `phoneNumberRequired` or `ssnDuplicate`. */
export function createKycApplication(input: CreateKycInput) {
  return apiRequest<CreateKycResponse>("POST", "/api/kyc/create", input);
}

export function useCreateKycApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createKycApplication,
    meta: { ignoreUnauthorized: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KYC_STATUS_KEY }),
  });
}
