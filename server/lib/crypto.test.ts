import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  blindIndex,
  decryptField,
  deriveKey,
  encryptField,
  signToken,
  verifyToken,
} from "@/server/lib/crypto";

const key = randomBytes(32);

describe("field encryption (AES-256-GCM)", () => {
  it("round-trips a value", () => {
    expect(decryptField(key, encryptField(key, "123456789"))).toBe("123456789");
  });

  it("uses a fresh IV, so the same value never encrypts the same way twice", () => {
    expect(encryptField(key, "123456789")).not.toBe(encryptField(key, "123456789"));
  });

  it("does not contain the plaintext", () => {
    const stored = encryptField(key, "123456789");
    expect(stored).not.toContain("123456789");
    expect(Buffer.from(stored.slice(3), "base64").toString("latin1")).not.toContain("123456789");
  });

  it("refuses a tampered ciphertext", () => {
    const stored = encryptField(key, "123456789");
    const raw = Buffer.from(stored.slice(3), "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptField(key, `v1:${raw.toString("base64")}`)).toThrow();
  });

  it("refuses another key", () => {
    expect(() => decryptField(randomBytes(32), encryptField(key, "123456789"))).toThrow();
  });

  it("refuses an unknown format and a short key", () => {
    expect(() => decryptField(key, "plain")).toThrow(/format/);
    expect(() => decryptField(key, "v1:AAAA")).toThrow(/truncated/);
    expect(() => encryptField(randomBytes(16), "x")).toThrow(/32 bytes/);
  });
});

describe("blind index", () => {
  it("is deterministic for one key and label", () => {
    expect(blindIndex(key, "ssn", "123456789")).toBe(blindIndex(key, "ssn", "123456789"));
    expect(blindIndex(key, "ssn", "123456789")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs by value, by label and by key", () => {
    const base = blindIndex(key, "ssn", "123456789");
    expect(blindIndex(key, "ssn", "123456780")).not.toBe(base);
    expect(blindIndex(key, "ein", "123456789")).not.toBe(base);
    expect(blindIndex(randomBytes(32), "ssn", "123456789")).not.toBe(base);
  });

  it("uses a derived key, not the data key itself", () => {
    expect(deriveKey(key, "a").equals(key)).toBe(false);
    expect(deriveKey(key, "a").equals(deriveKey(key, "b"))).toBe(false);
  });
});

describe("signed tokens", () => {
  const secret = "s".repeat(64);

  it("verifies its own signature and returns the payload", () => {
    expect(verifyToken(secret, signToken(secret, "abc:123"))).toBe("abc:123");
  });

  it("refuses a changed payload, a changed signature, another secret and junk", () => {
    const token = signToken(secret, "abc:123");
    expect(verifyToken(secret, token.replace("abc", "abd"))).toBeNull();
    expect(verifyToken(secret, `${token.slice(0, -2)}xx`)).toBeNull();
    expect(verifyToken("other", token)).toBeNull();
    expect(verifyToken(secret, "")).toBeNull();
    expect(verifyToken(secret, ".")).toBeNull();
    expect(verifyToken(secret, "no-dot")).toBeNull();
  });

  it("binds to a value it does not carry", () => {
    const token = signToken(secret, "abc", "user-1");
    expect(token).not.toContain("user-1");
    expect(verifyToken(secret, token, "user-1")).toBe("abc");
    expect(verifyToken(secret, token, "user-2")).toBeNull();
    expect(verifyToken(secret, token)).toBeNull();
  });

  it("refuses a payload with a dot", () => {
    expect(() => signToken(secret, "a.b")).toThrow();
  });
});
