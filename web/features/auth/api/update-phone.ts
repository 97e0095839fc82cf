import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdatePhoneInput } from "@/contract/auth";
import { callEndpoint } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";

/** PUT /api/user/phone: adds the phone once; the server refuses a change afterwards. */
export function updatePhone(input: UpdatePhoneInput) {
  return callEndpoint("PUT /api/user/phone", { body: input });
}

export function useUpdatePhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePhone,
    // Not awaited: the add-phone form unmounts once the user refetches, and the caller's toast must fire first.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
