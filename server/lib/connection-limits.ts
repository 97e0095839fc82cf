import fs from "node:fs";
import type { Server } from "node:http";
import { BlockList, isIP, type Socket } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "@/server/config";

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) counts as `10.0.0.1`. */
const plainAddress = (address: string) => (address.startsWith("::ffff:") ? address.slice(7) : address);

/**
 * Which socket peers are the proxies TRUST_PROXY names. They carry many clients' connections, so the per-IP
 * cap does not apply to them (the total cap still does). A hop count trusts whatever peer connects, so with
 * a count no peer is capped per IP.
 */
export function trustedPeerCheck(trust: Config["trustProxy"]): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === "number") return () => true;
  const list = new BlockList();
  for (const entry of trust) {
    const [address, bits] = entry.split("/") as [string, string | undefined];
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const plain = plainAddress(address);
    return list.check(plain, isIP(plain) === 6 ? "ipv6" : "ipv4");
  };
}

/** The process's open-file limit (Linux), or null where it cannot be read. */
export function fileDescriptorLimit(): number | null {
  try {
    const line = fs
      .readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/**
 * The total cap actually applied: the configured one, but never so high that client sockets could take the
 * descriptors the database pool, storage and logs need (`reserved`).
 */
export function effectiveMaxConnections(
  configured: number,
  reserved: number,
  fdLimit = fileDescriptorLimit(),
) {
  if (fdLimit === null) return configured;
  return Math.max(1, Math.min(configured, fdLimit - reserved));
}

/**
 * Caps open connections, in total and per peer address, before any HTTP is parsed: a client holding
 * thousands of half-sent requests must not use up the process's file descriptors (and with them the
 * database pool). Over a cap the socket is destroyed at once; nothing is read from it or written to it, so
 * refusing costs no more than accepting. The count is by the socket's peer, not X-Forwarded-For: behind a
 * load balancer that peer is the balancer, which TRUST_PROXY exempts from the per-IP cap. (When the
 * process is out of descriptors, libuv accepts and drops pending connections itself, silently: the cap below
 * the descriptor limit is what keeps that from happening.) Answers the total cap applied.
 */
export function limitConnections(
  server: Server,
  limits: Pick<Config["http"], "maxConnections" | "maxConnectionsPerIp">,
  trust: Config["trustProxy"],
  log: FastifyBaseLogger,
  reservedDescriptors: number,
): number {
  const isTrustedPeer = trustedPeerCheck(trust);
  const maxConnections = effectiveMaxConnections(limits.maxConnections, reservedDescriptors);
  if (maxConnections < limits.maxConnections) {
    log.warn(
      { configured: limits.maxConnections, applied: maxConnections },
      "MAX_CONNECTIONS lowered to fit the open-file limit (raise ulimit -n to allow more)",
    );
  }
  const perAddress = new Map<string, number>();
  let open = 0;
  let lastWarning = 0;

  const refuse = (socket: Socket, reason: string, address: string) => {
    socket.destroy();
    // One line a minute: under a flood, logging each refusal would itself be the outage.
    if (Date.now() - lastWarning > 60_000) {
      lastWarning = Date.now();
      log.warn({ reason, address, open }, "refusing connections over the cap");
    }
  };

  server.on("connection", (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress ?? "unknown");
    if (open >= maxConnections) return refuse(socket, "total", address);
    const fromAddress = perAddress.get(address) ?? 0;
    if (fromAddress >= limits.maxConnectionsPerIp && !isTrustedPeer(address))
      return refuse(socket, "per-ip", address);
    open++;
    perAddress.set(address, fromAddress + 1);
    socket.once("close", () => {
      open--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  return maxConnections;
}

/**
 * How many event streams one instance holds at most (decision 034): EVENT_STREAMS_MAX, or three quarters of
 * the applied connection cap, and never the whole of it. A stream holds its socket for hours, so without a
 * budget of their own one account's streams could take every connection and a bystander's request would be
 * refused ("socket hang up"); past the budget a stream is answered 429 and that tab polls instead.
 */
export function eventStreamBudget(appliedMaxConnections: number, configured: number | undefined): number {
  const ceiling = Math.max(0, appliedMaxConnections - Math.max(1, Math.ceil(appliedMaxConnections / 8)));
  return Math.min(configured ?? Math.floor((appliedMaxConnections * 3) / 4), ceiling);
}
