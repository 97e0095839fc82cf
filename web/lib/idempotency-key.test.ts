import { describe, expect, it } from "vitest";
import { newIdempotencyKey, ResendKeys } from "@/web/lib/idempotency-key";

describe("ResendKeys", () => {
  it("gives the same text the same key until the server answers", () => {
    const keys = new ResendKeys();
    const first = keys.keyFor("Hello");
    keys.settled(503);
    expect(keys.keyFor("Hello")).toBe(first);
    keys.settled(undefined); // no answer at all (the network)
    expect(keys.keyFor("Hello")).toBe(first);
    keys.settled(200);
    expect(keys.keyFor("Hello")).not.toBe(first);
  });

  it("forgets the key after a refusal, and gives other text its own", () => {
    const keys = new ResendKeys();
    const first = keys.keyFor("Hello");
    expect(keys.keyFor("Hello again")).not.toBe(first);
    const second = keys.keyFor("Hello again");
    keys.settled(422);
    expect(keys.keyFor("Hello again")).not.toBe(second);
  });

  it("makes keys the server accepts (UUID v4)", () => {
    expect(newIdempotencyKey()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
