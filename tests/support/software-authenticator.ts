import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/**
 * A passkey authenticator in software for API tests: ES256 keys from node:crypto, "none" attestation, and
 * every field a test may want to get wrong (origin, RP id, type, challenge, counter) overridable.
 */

// --- A minimal CBOR encoder: unsigned/negative integers, byte and text strings, maps. ---
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(encodeCbor(k), encodeCbor(v));
  return Buffer.concat(parts);
}

// --- WebAuthn structures. ---
const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString("base64url");

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  cosePublicKey: Buffer;
  counter: number;
  userHandle: string;
}

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  type?: string;
  challenge?: string;
  userVerified?: boolean;
  /** The signature counter to report (default: one more than last time). */
  counter?: number;
}

interface AuthenticatorOptions {
  origin?: string;
  /** Backup eligible and backed up: a synced ("multiDevice") passkey. */
  synced?: boolean;
  /** Report a signature counter (default); false reports 0 every time, like synced platform passkeys. */
  counts?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentials: SoftCredential[] = [];
  readonly origin: string;
  private readonly synced: boolean;
  private readonly counts: boolean;

  constructor({
    origin = "http://localhost:5000",
    synced = false,
    counts = true,
  }: AuthenticatorOptions = {}) {
    this.origin = origin;
    this.synced = synced;
    this.counts = counts;
  }

  private flags(extra: number, userVerified: boolean) {
    const backup = this.synced ? FLAG.BE | FLAG.BS : 0;
    return FLAG.UP | (userVerified ? FLAG.UV : 0) | backup | extra;
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create: a new ES256 credential (or `reuse` an existing one, as a replayed authenticator would). */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    overrides: CeremonyOverrides & { reuse?: SoftCredential } = {},
  ) {
    let credential = overrides.reuse;
    if (!credential) {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const jwk = publicKey.export({ format: "jwk" });
      const cose = encodeCbor(
        new Map<Cbor, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x!, "base64url")],
          [-3, Buffer.from(jwk.y!, "base64url")],
        ]),
      );
      credential = {
        id: b64url(randomBytes(32)),
        privateKey,
        cosePublicKey: cose,
        counter: 0,
        userHandle: options.user.id,
      };
      this.credentials.push(credential);
    }
    const rpId = overrides.rpId ?? options.rp.id ?? "localhost";
    const idBytes = Buffer.from(credential.id, "base64url");
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(FLAG.AT, overrides.userVerified ?? true)]),
      Buffer.alloc(4), // signCount 0 at creation
      Buffer.alloc(16), // AAGUID: none
      idLength,
      idBytes,
      credential.cosePublicKey,
    ]);
    const attestationObject = encodeCbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      overrides.type ?? "webauthn.create",
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.origin,
    );
    return {
      credential,
      response: {
        id: credential.id,
        rawId: credential.id,
        type: "public-key" as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        authenticatorAttachment: "platform" as const,
        clientExtensionResults: {},
      },
    };
  }

  /** navigator.credentials.get with one of this authenticator's credentials (the first allowed one by default). */
  assert(
    options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] },
    overrides: CeremonyOverrides & { credential?: SoftCredential } = {},
  ) {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const credential =
      overrides.credential ??
      this.credentials.find((c) => !allowed || allowed.length === 0 || allowed.includes(c.id));
    if (!credential) throw new Error("No credential of this authenticator is allowed");
    const counter = overrides.counter ?? (this.counts ? credential.counter + 1 : 0);
    credential.counter = counter;
    const signCount = Buffer.alloc(4);
    signCount.writeUInt32BE(counter);
    const authData = Buffer.concat([
      sha256(overrides.rpId ?? options.rpId ?? "localhost"),
      Buffer.from([this.flags(0, overrides.userVerified ?? true)]),
      signCount,
    ]);
    const clientDataJSON = this.clientData(
      overrides.type ?? "webauthn.get",
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.origin,
    );
    // ES256 signatures are DER-encoded ECDSA, node's default for EC keys.
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
    };
  }
}
