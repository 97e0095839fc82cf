import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { eq, sql } from "drizzle-orm";
import { type Address, getAddress, getContractAddress, type Hex, keccak256, toHex } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import { z } from "zod";
import { type Db, queryRows } from "@/server/db/client";
import { depositAddresses } from "@/server/db/schema";
import { lockReceivingCustomer } from "@/server/features/credits/receiving-customer";
import { depositForwarderBytecode } from "@/server/features/settlement/contracts/deposit-forwarders.artifact";

/**
 * The deposit address at `index`: the non-hardened child `index` of DEPOSIT_XPUB (the receive branch, e.g.
 * m/44'/60'/0'/0 of the treasury's seed, so index i is that seed's account i). Pure: the same xpub and index
 * always give the same address, which is why the index, not the address, is what the database allocates.
 */
export function depositAddressAt(xpub: string, index: number): Address {
  const child = HDKey.fromExtendedKey(xpub).deriveChild(index);
  const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey!).toRawBytes(false);
  return publicKeyToAddress(toHex(uncompressed));
}

const FORWARDER_CODE_HASH = keccak256(depositForwarderBytecode);

/** The salt of the CREATE2 deposit address at `index`: the index as 32 bytes (unique, as the index is). */
export const forwarderSalt = (index: number): Hex => toHex(BigInt(index), { size: 32 });

/**
 * The CREATE2 deposit address of `salt` under `factory` (decision 060): where the factory's sweep(salt) deploys
 * the forwarder, and what its addressOf(salt) answers. Pure, like depositAddressAt.
 */
export function forwarderAddress(factory: Address, salt: Hex): Address {
  return getContractAddress({ opcode: "CREATE2", from: factory, salt, bytecodeHash: FORWARDER_CODE_HASH });
}

/**
 * The customer's deposit address, allocated on first use: a new index from the table's sequence (never reused,
 * even after the customer is deleted), derived and stored in one transaction. Only a customer who may receive
 * money gets one (an open account, not staff: the same rule as incoming payments, 409 otherwise).
 */
export async function ensureDepositAddress(
  db: Db,
  xpub: string,
  userId: string,
  factory: Address | null = null,
): Promise<Address> {
  const [existing] = await db
    .select({ address: depositAddresses.address })
    .from(depositAddresses)
    .where(eq(depositAddresses.userId, userId));
  if (existing) return getAddress(existing.address);
  return db.transaction(async (tx) => {
    await lockReceivingCustomer(tx, userId);
    const [next] = await queryRows(
      tx,
      sql`select nextval(pg_get_serial_sequence('deposit_addresses', 'derivation_index'))::int as index`,
      z.object({ index: z.number() }),
    );
    const index = Number(next!.index);
    // With a factory, a forwarder's address the hot wallet can sweep; without, the xpub's child (decision 060).
    const salt = factory ? forwarderSalt(index) : null;
    await tx
      .insert(depositAddresses)
      .values({
        derivationIndex: index,
        userId,
        address: (salt ? forwarderAddress(factory!, salt) : depositAddressAt(xpub, index)).toLowerCase(),
        kind: salt ? "create2" : "xpub",
        salt,
        factory: factory?.toLowerCase() ?? null,
      })
      .onConflictDoNothing({ target: depositAddresses.userId });
    const [row] = await tx
      .select({ address: depositAddresses.address })
      .from(depositAddresses)
      .where(eq(depositAddresses.userId, userId));
    return getAddress(row!.address);
  });
}
