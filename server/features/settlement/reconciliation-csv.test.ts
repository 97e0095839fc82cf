import { describe, expect, it } from "vitest";
import type { ReconciliationDetail } from "@/contract/settlement";
import { reportCsv } from "@/server/features/settlement/reconciliation-csv";

const report: ReconciliationDetail["report"] = {
  id: "6f1c1a52-2d0f-4a43-9a59-1f0b7b2a8f10",
  trigger: "staff",
  requestedBy: "finance@example.com",
  status: "differences",
  asOfBlock: 120,
  headBlock: 122,
  hotOnChainUsdc: "93.000000",
  hotExpectedUsdc: "100.000000",
  differences: 1,
  newDifferences: 0,
  resolved: 0,
  acknowledged: 1,
  awaiting: 0,
  error: null,
  startedAt: "2026-11-27T03:00:00.000Z",
  finishedAt: "2026-11-27T03:00:01.000Z",
};

describe("reconciliation report CSV", () => {
  it("writes the summary, then one line per item, CRLF-terminated", () => {
    const csv = reportCsv({
      report,
      items: [
        {
          id: "7",
          area: "hot_wallet",
          kind: "balance",
          outcome: "difference",
          txHash: null,
          reference: "0xabc",
          chainUsdc: "93.000000",
          ledgerUsdc: "100.000000",
          detail: "The hot wallet holds less USDC than the ledger accounts for",
          explorerUrl: null,
          acknowledgment: {
            by: "finance@example.com",
            at: "2026-11-27T04:00:00.000Z",
            reason: "Treasury sweep, ticket FIN-12",
          },
          state: "open",
          firstSeenBlock: 97,
          resolvedBlock: null,
        },
      ],
    });
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "report,status,as_of_block,hot_wallet_on_chain_usdc,hot_wallet_ledger_usdc,started_at",
    );
    expect(lines[1]).toBe(`${report.id},differences,120,93.000000,100.000000,2026-11-27T03:00:00.000Z`);
    expect(lines[3]).toBe(
      "area,outcome,kind,tx_hash,reference,chain_usdc,ledger_usdc,detail,acknowledged_by,acknowledged_at,acknowledgment_reason,state,first_seen_block",
    );
    // An acknowledged difference stays in the report, with who acknowledged it, when and why.
    expect(lines[4]).toBe(
      'hot_wallet,difference,balance,,0xabc,93.000000,100.000000,The hot wallet holds less USDC than the ledger accounts for,finance@example.com,2026-11-27T04:00:00.000Z,"Treasury sweep, ticket FIN-12",open,97',
    );
  });

  it("neutralises cells a spreadsheet would run as formulas, and quotes commas and quotes", () => {
    const csv = reportCsv({
      report,
      items: [
        {
          id: "8",
          area: "payouts",
          kind: "unknown_outflow",
          outcome: "difference",
          txHash: '=HYPERLINK("http://evil")',
          reference: "+1+1",
          chainUsdc: "-7.000000",
          ledgerUsdc: "@SUM(A1)",
          detail: 'sent "to", someone',
          explorerUrl: null,
          acknowledgment: null,
          state: null,
          firstSeenBlock: null,
          resolvedBlock: null,
        },
      ],
    });
    const line = csv.split("\r\n")[4]!;
    expect(line).toBe(
      `payouts,difference,unknown_outflow,"'=HYPERLINK(""http://evil"")",'+1+1,'-7.000000,'@SUM(A1),"sent ""to"", someone",,,,,`,
    );
  });
});
