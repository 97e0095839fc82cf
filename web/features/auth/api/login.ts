import { useMutation } from "@tanstack/react-query";
import type { LoginInput, LoginResponse } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/login. A 401 here means wrong credentials, not a lost session. */
export function login(input: LoginInput) {
  return apiRequest<LoginResponse>("POST", "/api/auth/login", input);
}

export function useLogin() {
  return useMutation({ mutationFn: login, meta: { ignoreUnauthorized: true } });
}
