import { describe, expect, it } from "vitest";
import { transferFigures, usdcNetwork } from "@/contract/transfer-figures";

const ETH = "0x52908400098527886E0F7030069857D2E4169EE7";
const SOL = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

describe("transfer figures", () => {
  it("reads the same for review, success, receipt and PDF: amount, the fee taken off, what the recipient gets", () => {
    expect(transferFigures({ amountCents: 5_000, feeCents: 100 })).toEqual({
      lines: [
        { label: "Amount", value: "$50.00" },
        { label: "Fee (2%)", value: "−$1.00" },
        { label: "Recipient gets", value: "$49.00 USDC", isStrong: true },
      ],
      note: null,
    });
    for (const status of ["pending", "processing", "completed"] as const) {
      expect(transferFigures({ amountCents: 5_000, feeCents: 100, status })).toEqual(
        transferFigures({ amountCents: 5_000, feeCents: 100 }),
      );
    }
  });

  it("says a cancelled or failed transfer sent nothing, released its hold and charged no fee", () => {
    for (const status of ["cancelled", "failed"] as const) {
      const figures = transferFigures({ amountCents: 5_000, feeCents: 100, status });
      expect(figures.lines.map((line) => line.value)).toEqual([
        "$50.00 (not sent)",
        "$0.00 (not charged)",
        "Nothing sent",
      ]);
      expect(figures.note).toBe(
        "Nothing was sent. The $50.00 hold was released to the available balance and no fee was charged.",
      );
      expect(JSON.stringify(figures)).not.toMatch(/\$1\.00|\$49\.00/);
    }
  });

  it("names the network from the address, never the routing placeholder", () => {
    expect(usdcNetwork(ETH)).toBe("USDC on Ethereum");
    expect(usdcNetwork(SOL)).toBe("USDC on Solana");
  });
});
