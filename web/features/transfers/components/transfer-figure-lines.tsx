import { type TransferFigures, transferFigures } from "@/contract/transfer-figures";
import type { TransferStatus } from "@/contract/transfers";
import { SummaryLine } from "@/web/features/transfers/components/summary-line";

/** The amount, fee and what the recipient gets, as every transfer screen shows them (inside a `<dl>`). */
export function TransferFigureLines({
  amountCents,
  feeCents,
  status,
}: {
  amountCents: number;
  feeCents: number;
  status?: TransferStatus;
}) {
  return transferFigures({ amountCents, feeCents, status }).lines.map((line) => (
    <SummaryLine key={line.label} label={line.label} strong={line.isStrong}>
      {line.value}
    </SummaryLine>
  ));
}

/** The figures' note for a transfer that never left, said where it can be read aloud; nothing otherwise. */
export function UnsentNote({ figures }: { figures: TransferFigures }) {
  if (!figures.note) return null;
  return <p className="rounded-lg border border-line bg-canvas p-3 text-sm text-ink">{figures.note}</p>;
}
