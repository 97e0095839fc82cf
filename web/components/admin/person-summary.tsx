import type { ReactNode } from "react";
import { initials } from "@/web/lib/format";

/**
 * A person at the start of a back-office row: initials in a circle, the name with its badges, and a line under
 * it (e-mail, tag). Two grid cells, so the row's own grid places them.
 */
export function PersonSummary({
  firstName,
  lastName,
  badges,
  detail,
}: {
  firstName: string;
  lastName: string;
  badges?: ReactNode;
  detail: ReactNode;
}) {
  return (
    <>
      <span className="flex size-9 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-800">
        {initials(firstName, lastName)}
      </span>
      <div className="grid min-w-0 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          <span className="truncate">
            {firstName} {lastName}
          </span>
          {badges}
        </p>
        <p className="truncate text-xs text-ink-muted">{detail}</p>
      </div>
    </>
  );
}
