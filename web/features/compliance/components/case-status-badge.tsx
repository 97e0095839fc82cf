import type { ComplianceCase } from "@/contract/compliance";
import { Badge } from "@/web/components/ui/badge";

const LABELS: Record<ComplianceCase["status"], { text: string; tone: "pending" | "positive" | "negative" }> =
  {
    open: { text: "Open", tone: "pending" },
    cleared: { text: "Cleared", tone: "positive" },
    confirmed: { text: "Confirmed match", tone: "negative" },
    restricted: { text: "Restricted", tone: "negative" },
    frozen: { text: "Frozen", tone: "negative" },
    filed: { text: "Report filed", tone: "negative" },
  };

export function CaseStatusBadge({ status }: { status: ComplianceCase["status"] }) {
  const { text, tone } = LABELS[status];
  return <Badge tone={tone}>{text}</Badge>;
}

export const DECISION_LABELS = {
  clear: "Clear (no report)",
  restrict: "Restrict (no money out)",
  freeze: "Freeze the account",
  file: "File a report",
  lift: "Lift the restriction",
  reject_transfer: "Reject a held transfer (money back, report to OFAC)",
  block_transfer: "Block a held transfer (blocked property, report to OFAC)",
} as const;
