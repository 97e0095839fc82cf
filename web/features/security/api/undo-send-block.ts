import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api";

/** POST /api/account/send-block/undo with the token from the "crypto sends are blocked" e-mail; no sign-in needed. */
export function undoSendBlock(input: { token: string }) {
  return apiRequest<{ message: string }>("POST", "/api/account/send-block/undo", input);
}

export function useUndoSendBlock() {
  return useMutation({ mutationFn: undoSendBlock, meta: { on401: "ignore" } });
}
