import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AccountStatusBadge } from "@/web/features/users/admin/user-status-badge";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("the back office's account status", () => {
  it("shows one status for a frozen customer: Frozen, never Active beside it", () => {
    const frozen = text(
      renderToStaticMarkup(
        <AccountStatusBadge user={{ status: "active", frozenAt: "2026-11-20T15:00:00.000Z" }} />,
      ),
    );
    expect(frozen).toMatch(/^Frozen /);
    expect(frozen.toLowerCase()).not.toContain("active");
  });

  it("shows the stored status of an account that is not frozen", () => {
    expect(
      text(renderToStaticMarkup(<AccountStatusBadge user={{ status: "active", frozenAt: null }} />)),
    ).toBe("active");
  });
});
