import { ETHEREUM_ADDRESS } from "@/contract/transfer-figures";
import { hasNoChecksum } from "@/contract/transfers";

/*
 * EIP-55 in the browser, so the review step catches a mistyped address before Confirm
 * (docs/architecture.md "Design notes"), as the server's check
 * (server/features/transfers/address-checksum.ts, viem) does at the request. Keccak-256 is written here
 * rather than imported: no hashing library is in the web bundle, and one address is 40 bytes, so 64-bit lanes
 * as BigInt are fast enough and keep this to a few hundred bytes.
 */

const MASK = (1n << 64n) - 1n;
const RATE_BYTES = 136;

const rotate = (lane: bigint, by: number) =>
  by === 0 ? lane : ((lane << BigInt(by)) | (lane >> BigInt(64 - by))) & MASK;

/** The 24 round constants, from the specification's LFSR rather than typed out. */
const ROUND_CONSTANTS = (() => {
  let state = 1;
  const nextBit = () => {
    const bit = state & 1;
    state = state & 0x80 ? ((state << 1) ^ 0x171) & 0xff : state << 1;
    return bit;
  };
  return Array.from({ length: 24 }, () => {
    let constant = 0n;
    for (let j = 0; j < 7; j++) if (nextBit()) constant |= 1n << BigInt(2 ** j - 1);
    return constant;
  });
})();

/** Rho's rotation of lane x + 5y, and pi's destination lane for it. */
const ROTATIONS = new Array<number>(25).fill(0);
const DESTINATIONS = Array.from({ length: 25 }, (_, i) => {
  const x = i % 5;
  const y = Math.floor(i / 5);
  return y + 5 * ((2 * x + 3 * y) % 5);
});
for (let t = 0, x = 1, y = 0; t < 24; t++) {
  ROTATIONS[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
  [x, y] = [y, (2 * x + 3 * y) % 5];
}

function permute(lanes: bigint[]) {
  const moved = new Array<bigint>(25);
  for (const constant of ROUND_CONSTANTS) {
    const columns = [0, 1, 2, 3, 4].map(
      (x) => lanes[x] ^ lanes[x + 5] ^ lanes[x + 10] ^ lanes[x + 15] ^ lanes[x + 20],
    );
    for (let i = 0; i < 25; i++) {
      const x = i % 5;
      lanes[i] ^= columns[(x + 4) % 5] ^ rotate(columns[(x + 1) % 5], 1);
    }
    for (let i = 0; i < 25; i++) moved[DESTINATIONS[i]] = rotate(lanes[i], ROTATIONS[i]);
    for (let i = 0; i < 25; i++) {
      const row = i - (i % 5);
      lanes[i] = moved[i] ^ (~moved[row + ((i + 1) % 5)] & MASK & moved[row + ((i + 2) % 5)]);
    }
    lanes[0] ^= constant;
  }
}

/** Keccak-256 (Ethereum's, padding 0x01, not SHA3-256's 0x06) of some bytes, as lowercase hex. */
export function keccak256Hex(bytes: Uint8Array): string {
  const padded = new Uint8Array((Math.floor(bytes.length / RATE_BYTES) + 1) * RATE_BYTES);
  padded.set(bytes);
  padded[bytes.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const lanes = new Array<bigint>(25).fill(0n);
  for (let block = 0; block < padded.length; block += RATE_BYTES) {
    for (let i = 0; i < RATE_BYTES / 8; i++) {
      let lane = 0n;
      for (let b = 7; b >= 0; b--) lane = (lane << 8n) | BigInt(padded[block + i * 8 + b]);
      lanes[i] ^= lane;
    }
    permute(lanes);
  }
  let hex = "";
  for (let i = 0; i < 4; i++) {
    for (let b = 0; b < 8; b++) hex += ((lanes[i] >> BigInt(8 * b)) & 0xffn).toString(16).padStart(2, "0");
  }
  return hex;
}

/** An EVM address in its EIP-55 form: a letter is a capital where the hash of the lowercase address has a high nibble. */
export function toChecksumAddress(address: string): string {
  const body = address.slice(2).toLowerCase();
  const hash = keccak256Hex(new TextEncoder().encode(body));
  let out = "0x";
  for (let i = 0; i < body.length; i++)
    out += Number.parseInt(hash[i], 16) >= 8 ? body[i].toUpperCase() : body[i];
  return out;
}

/**
 * An EVM address whose capitals do not match its checksum: a typing mistake the server refuses
 * (`addressChecksumMismatch`). Small letters only is not this (it carries no checksum, decision 044).
 */
export function hasWrongChecksum(address: string): boolean {
  return ETHEREUM_ADDRESS.test(address) && !hasNoChecksum(address) && toChecksumAddress(address) !== address;
}
