import type { ReconciliationDetail } from "@/contract/settlement";
import { csvLine } from "@/server/lib/csv";

const CSV_HEADER = [
  "area",
  "outcome",
  "kind",
  "tx_hash",
  "reference",
  "chain_usdc",
  "ledger_usdc",
  "detail",
  "acknowledged_by",
  "acknowledged_at",
  "acknowledgment_reason",
  "state",
  "first_seen_block",
];

/** The report as CSV: a summary block, then one line per item (cells neutralised against spreadsheet formulas). */
export function reportCsv(detail: ReconciliationDetail): string {
  const r = detail.report;
  let out = csvLine([
    "report",
    "status",
    "as_of_block",
    "hot_wallet_on_chain_usdc",
    "hot_wallet_ledger_usdc",
    "started_at",
  ]);
  out += csvLine([
    r.id,
    r.status,
    r.asOfBlock === null ? "" : String(r.asOfBlock),
    r.hotOnChainUsdc ?? "",
    r.hotExpectedUsdc ?? "",
    r.startedAt,
  ]);
  out += "\r\n";
  out += csvLine(CSV_HEADER);
  for (const i of detail.items) {
    out += csvLine([
      i.area,
      i.outcome,
      i.kind,
      i.txHash ?? "",
      i.reference ?? "",
      i.chainUsdc ?? "",
      i.ledgerUsdc ?? "",
      i.detail,
      i.acknowledgment ? (i.acknowledgment.by ?? "") : "",
      i.acknowledgment?.at ?? "",
      i.acknowledgment?.reason ?? "",
      i.state ?? "",
      i.firstSeenBlock === null ? "" : String(i.firstSeenBlock),
    ]);
  }
  return out;
}
