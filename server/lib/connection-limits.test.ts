import { describe, expect, it } from "vitest";
import { effectiveMaxConnections, eventStreamBudget, trustedPeerCheck } from "@/server/lib/connection-limits";

describe("connection caps", () => {
  it("exempts only the proxies TRUST_PROXY lists from the per-IP cap, IPv4-mapped peers included", () => {
    const isProxy = trustedPeerCheck(["10.0.0.0/8", "192.168.1.7", "fd00::/8"]);
    expect(isProxy("10.1.2.3")).toBe(true);
    expect(isProxy("::ffff:10.1.2.3")).toBe(true);
    expect(isProxy("192.168.1.7")).toBe(true);
    expect(isProxy("fd00::1")).toBe(true);
    expect(isProxy("192.168.1.8")).toBe(false);
    expect(isProxy("203.0.113.9")).toBe(false);
    expect(trustedPeerCheck(false)("10.1.2.3")).toBe(false);
    // A hop count trusts whichever peer connects: that peer is the load balancer.
    expect(trustedPeerCheck(1)("203.0.113.9")).toBe(true);
  });

  it("never lets client sockets take the descriptors the pool and storage need", () => {
    expect(effectiveMaxConnections(4096, 74, 1024)).toBe(950);
    expect(effectiveMaxConnections(500, 74, 1024)).toBe(500);
    expect(effectiveMaxConnections(4096, 74, null)).toBe(4096);
    expect(effectiveMaxConnections(4096, 74, 50)).toBe(1);
  });

  it("keeps event streams to a budget below the connection cap, so requests always find a socket", () => {
    // The attack's instance: MAX_CONNECTIONS=300 let one account hold 298 streams.
    expect(eventStreamBudget(300, undefined)).toBe(225);
    expect(eventStreamBudget(4096, undefined)).toBe(3072);
    expect(eventStreamBudget(300, 100)).toBe(100);
    // Asked for the whole cap or more, an eighth still stays free for requests.
    expect(eventStreamBudget(300, 300)).toBe(262);
    expect(eventStreamBudget(300, 10_000)).toBe(262);
    expect(eventStreamBudget(1, undefined)).toBe(0);
  });
});
