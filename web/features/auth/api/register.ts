import { useMutation } from "@tanstack/react-query";
import type { RegisterInput, RegisterResponse } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/register. An existing unverified account answers with `emailNotVerified: true`. */
export function register(input: RegisterInput) {
  return apiRequest<RegisterResponse>("POST", "/api/auth/register", input);
}

export function useRegister() {
  return useMutation({ mutationFn: register, meta: { on401: "ignore" } });
}
