import { describe, expect, it } from "vitest";
import { describePlace } from "@/server/lib/describe-place";

describe("describePlace", () => {
  it("names a public address as it is", () => {
    expect(describePlace("203.0.113.7")).toBe("IP 203.0.113.7");
    expect(describePlace("2001:db8::1")).toBe("IP 2001:db8::1");
  });
  it("marks private and loopback addresses as the local network", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "192.168.0.4",
      "172.20.1.1",
      "::1",
      "::ffff:10.0.0.9",
      "fd00::1",
    ])
      expect(describePlace(ip)).toMatch(/local network/);
  });
  it("says unknown for anything that is not an address", () => {
    expect(describePlace(undefined)).toBe("an unknown address");
    expect(describePlace("not-an-ip")).toBe("an unknown address");
  });
});
