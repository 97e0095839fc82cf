import { Lock } from "lucide-react";

/**
 * Where a row in a terminal status would have its Edit or Status button: completed, failed and cancelled never
 * move again (the server answers 409), so the row says so instead of offering an action that can only fail.
 */
export function FinalMarker() {
  return (
    <span
      className="inline-flex items-center gap-1 text-xs text-ink-subtle"
      title="Final: this status can no longer change"
    >
      <Lock className="size-3" aria-hidden />
      Final
    </span>
  );
}
