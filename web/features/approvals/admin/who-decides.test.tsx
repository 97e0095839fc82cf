import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Approval } from "@/contract/approvals";
import { WhoDecides } from "@/web/features/approvals/admin/approvals-tab";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

// Only the fields WhoDecides reads; the tab shows it instead of Approve/Reject the server would refuse.
const kycReset = { kind: "kyc_reset" } as Approval;

describe("the Approvals tab's 'who decides' line", () => {
  it("tells finance that compliance or an owner decides a KYC reset", () => {
    expect(text(renderToStaticMarkup(<WhoDecides approval={kycReset} isMaker={false} />))).toBe(
      "Only Compliance or Owner staff may approve or reject this.",
    );
  });

  it("tells the maker another member decides", () => {
    expect(text(renderToStaticMarkup(<WhoDecides approval={kycReset} isMaker />))).toBe(
      "You asked for this: another staff member (Compliance or Owner) approves or rejects it.",
    );
  });
});
