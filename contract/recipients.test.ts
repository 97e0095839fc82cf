import { describe, expect, it } from "vitest";
import { isSameAddress } from "@/contract/recipients";

// Which address imitates a saved one is the lookalike_recipient SQL function's rule alone (decision 019);
// server/features/recipients/lookalike-recipient.api.test.ts holds the cases that were here.
const SAVED = "0x52908400098527886E0F7030069857D2E4169EE7";

describe("addresses", () => {
  it("treats an address in another case as the same one", () => {
    expect(isSameAddress(` ${SAVED.toLowerCase()} `, SAVED)).toBe(true);
  });
});
