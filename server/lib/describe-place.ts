import { BlockList, isIP } from "node:net";

// Addresses that say "inside a local network" rather than somewhere on the internet (RFC 1918, CGNAT, ULA, link-local).
const LOCAL = new BlockList();
LOCAL.addSubnet("10.0.0.0", 8, "ipv4");
LOCAL.addSubnet("172.16.0.0", 12, "ipv4");
LOCAL.addSubnet("192.168.0.0", 16, "ipv4");
LOCAL.addSubnet("100.64.0.0", 10, "ipv4");
LOCAL.addSubnet("169.254.0.0", 16, "ipv4");
LOCAL.addSubnet("127.0.0.0", 8, "ipv4");
LOCAL.addSubnet("fc00::", 7, "ipv6");
LOCAL.addSubnet("fe80::", 10, "ipv6");
LOCAL.addAddress("::1", "ipv6");

/**
 * The approximate place of a sign-in from its IP alone: no location database or outside lookup exists on the
 * machine, so the mail names the address and says when it is a local one.
 */
export function describePlace(ip: string | null | undefined): string {
  if (!ip) return "an unknown address";
  const plain = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(plain);
  if (family === 0) return "an unknown address";
  const isLocal = LOCAL.check(plain, family === 4 ? "ipv4" : "ipv6");
  return isLocal ? `IP ${plain} (this device's local network)` : `IP ${plain}`;
}
