import { describe, expect, it } from "vitest";
import { transferBinding } from "@/server/features/transfers/transfer-binding";

const fields = {
  amountCents: 1_000,
  feeCents: 20,
  cryptoAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  recipientName: "Grace Hopper",
  idempotencyKey: "key-1",
};

describe("transferBinding", () => {
  it("is a stable hex SHA-256 of the transfer's fields", () => {
    expect(transferBinding(fields)).toMatch(/^[0-9a-f]{64}$/);
    expect(transferBinding({ ...fields })).toBe(transferBinding(fields));
  });

  it("changes when any signed field changes", () => {
    const base = transferBinding(fields);
    expect(transferBinding({ ...fields, amountCents: 100_000 })).not.toBe(base);
    expect(transferBinding({ ...fields, feeCents: 21 })).not.toBe(base);
    expect(transferBinding({ ...fields, cryptoAddress: `${fields.cryptoAddress.slice(0, -1)}8` })).not.toBe(
      base,
    );
    expect(transferBinding({ ...fields, recipientName: "Grace Hoppers" })).not.toBe(base);
    expect(transferBinding({ ...fields, idempotencyKey: "key-2" })).not.toBe(base);
  });
});
