import { useMutation } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/account/send-block/undo with the token from the "crypto sends are blocked" e-mail; no sign-in needed. */
export function undoSendBlock(input: { token: string }) {
  return callEndpoint("POST /api/account/send-block/undo", { body: input });
}

export function useUndoSendBlock() {
  return useMutation({ mutationFn: undoSendBlock, meta: { on401: "ignore" } });
}
