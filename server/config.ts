import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_APPROVAL_THRESHOLD_CENTS } from "@/contract/approvals";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import { parseMoney } from "@/contract/money";
import { type ChainConfig, parseChainConfig } from "@/server/lib/chain-config";
import { type FilingInstitution, parseFilingInstitution } from "@/server/lib/filing-institution";
import { parseTaxPayer, type TaxPayer } from "@/server/lib/tax-payer";

const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());
const flag = z.preprocess(
  (v) => (v === "" || v === undefined ? undefined : String(v).toLowerCase()),
  z.enum(["1", "0", "true", "false", "yes", "no"]).optional(),
);
const isOn = (v: string | undefined) => v === "1" || v === "true" || v === "yes";

/** A whole number in [min, max] with a default; the error names the variable. */
const intSetting = (name: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: `${name} must be a number` })
      .int({ error: `${name} must be a whole number` })
      .min(min, { error: `${name} must be at least ${min}` })
      .max(max, { error: `${name} must be at most ${max}` })
      .default(fallback),
  );

const envSchema = z.object({
  NODE_ENV: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["development", "production", "test"]).default("development"),
  ),
  PORT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ error: "PORT must be a number" }).int().min(0).max(65535).default(5000),
  ),
  HOST: optionalString.default("127.0.0.1"),
  DATA_DIR: optionalString.default("./data"),
  DATABASE_URL: optionalString.refine((v) => !v || /^postgres(ql)?:\/\//.test(v), {
    message: "DATABASE_URL must start with postgres:// or postgresql://",
  }),
  DATABASE_POOL_SIZE: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(200).default(10),
  ),
  DATABASE_QUERY_TIMEOUT_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "DATABASE_QUERY_TIMEOUT_MS must be a number" })
      .int()
      .min(100)
      .max(600_000)
      .default(15_000),
  ),
  DATABASE_CONNECT_TIMEOUT_MS: intSetting("DATABASE_CONNECT_TIMEOUT_MS", 50, 60_000, 5000),
  REQUEST_TIMEOUT_MS: intSetting("REQUEST_TIMEOUT_MS", 100, 600_000, 30_000),
  HEADERS_TIMEOUT_MS: intSetting("HEADERS_TIMEOUT_MS", 100, 600_000, 15_000),
  KEEP_ALIVE_TIMEOUT_MS: intSetting("KEEP_ALIVE_TIMEOUT_MS", 100, 600_000, 65_000),
  MAX_CONNECTIONS: intSetting("MAX_CONNECTIONS", 1, 1_000_000, 4096),
  MAX_CONNECTIONS_PER_IP: intSetting("MAX_CONNECTIONS_PER_IP", 1, 1_000_000, 128),
  EVENT_STREAMS_PER_USER: intSetting("EVENT_STREAMS_PER_USER", 1, 1000, 8),
  EVENT_STREAMS_MAX: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "EVENT_STREAMS_MAX must be a number" })
      .int({ error: "EVENT_STREAMS_MAX must be a whole number" })
      .min(1, { error: "EVENT_STREAMS_MAX must be at least 1" })
      .max(1_000_000, { error: "EVENT_STREAMS_MAX must be at most 1000000" })
      .optional(),
  ),
  MAX_SESSIONS_PER_USER: intSetting("MAX_SESSIONS_PER_USER", 1, 1000, 10),
  MAX_CONCURRENT_UPLOADS_PER_USER: intSetting("MAX_CONCURRENT_UPLOADS_PER_USER", 1, 100, 3),
  UPLOAD_DAILY_BYTES_PER_USER: intSetting(
    "UPLOAD_DAILY_BYTES_PER_USER",
    1,
    1_000_000_000_000,
    100 * 1024 * 1024,
  ),
  SMTP_URL: optionalString.refine((v) => !v || /^smtps?:\/\//.test(v), {
    message: "SMTP_URL must start with smtp:// or smtps://",
  }),
  MAIL_FROM: optionalString.default("Pillar <no-reply@pillar.localhost>"),
  STORAGE: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["local", "s3"]).default("local")),
  S3_BUCKET: optionalString,
  S3_REGION: optionalString.default("us-east-1"),
  S3_ENDPOINT: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: flag,
  SESSION_SECRET: optionalString,
  DATA_KEY: optionalString.refine((v) => !v || /^[0-9a-f]{64}$/i.test(v), {
    message: "DATA_KEY must be 64 hex characters (32 bytes)",
  }),
  ADMIN_EMAILS: optionalString.default(""),
  RATE_LIMIT_SCALE: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ error: "RATE_LIMIT_SCALE must be a number" }).positive().default(1),
  ),
  TRANSFER_DAILY_COUNT_LIMIT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "TRANSFER_DAILY_COUNT_LIMIT must be a number" })
      .int("TRANSFER_DAILY_COUNT_LIMIT must be a whole number")
      .positive("TRANSFER_DAILY_COUNT_LIMIT must be at least 1")
      .default(50),
  ),
  SCHEDULE_POLL_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "SCHEDULE_POLL_MS must be a number" })
      .int("SCHEDULE_POLL_MS must be a whole number")
      .min(100, "SCHEDULE_POLL_MS must be at least 100")
      .default(60_000),
  ),
  // Years a closed account's identity data is kept before the retention job erases it (decision 059; BSA: 5).
  ACCOUNT_RETENTION_YEARS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "ACCOUNT_RETENTION_YEARS must be a number of years, like 5" })
      .int("ACCOUNT_RETENTION_YEARS must be a whole number of years")
      .min(1, "ACCOUNT_RETENTION_YEARS must be at least 1 (the BSA asks for 5)")
      .max(100, "ACCOUNT_RETENTION_YEARS must be at most 100")
      .default(5),
  ),
  POLL_MEMORY_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "POLL_MEMORY_MS must be a number" })
      .int("POLL_MEMORY_MS must be a whole number")
      .min(0)
      .max(60_000)
      .default(5_000),
  ),
  COOKIE_SECURE: flag,
  PUBLIC_URL: optionalString,
  LOG_LEVEL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  REDIS_URL: optionalString.refine((v) => !v || /^rediss?:\/\//.test(v), {
    message: "REDIS_URL must start with redis:// or rediss://",
  }),
  REDIS_KEY_PREFIX: optionalString.default("pillar:"),
  TRUST_PROXY: optionalString.refine((v) => v === undefined || parseTrustProxy(v) !== null, {
    message:
      "TRUST_PROXY must be a hop count (0-10) or a comma list of proxy IPs/CIDRs (e.g. 10.0.0.0/8,127.0.0.1)",
  }),
  ADMIN_REQUIRE_2FA: flag,
  APPROVAL_THRESHOLD: optionalString.refine((v) => v === undefined || (parseMoney(v) ?? -1) >= 0, {
    message:
      "APPROVAL_THRESHOLD must be a dollar amount like 1000 or 1000.00 (at most 2 decimals, not negative)",
  }),
  SANCTIONS_NAME_THRESHOLD: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ error: "SANCTIONS_NAME_THRESHOLD must be a number" })
      .min(0.5, "SANCTIONS_NAME_THRESHOLD must be at least 0.5")
      .max(1, "SANCTIONS_NAME_THRESHOLD must be at most 1")
      .default(DEFAULT_SANCTIONS_NAME_THRESHOLD),
  ),
  METRICS_TOKEN: optionalString.refine((v) => !v || v.length >= 16, {
    message: "METRICS_TOKEN must be at least 16 characters",
  }),
});

export type Config = {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  /** How long one query may wait for PostgreSQL before the request fails with 503 instead of hanging. */
  databaseQueryTimeoutMs: number;
  /** How long a request waits for a pool connection (or a new connection) before it fails with 503. */
  databaseConnectTimeoutMs: number;
  /** Hostile-client limits on the HTTP server: slow bodies and headers are cut off, connections are capped. */
  http: {
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxConnections: number;
    maxConnectionsPerIp: number;
  };
  /** Pushed-update streams (decision 034): what one customer, and everyone together, may hold on one instance. */
  events: {
    /** Streams one user may hold across all their sessions; one more ends their oldest. */
    streamsPerUser: number;
    /** Streams this instance holds at most; unset: three quarters of the applied MAX_CONNECTIONS. */
    streamsMax?: number;
  };
  /** Active sessions one user may hold (in PostgreSQL, so across instances); a login past it ends the oldest. */
  maxSessionsPerUser: number;
  uploads: {
    /** Uploads one user may stream through this instance at once. */
    maxConcurrentPerUser: number;
    /** Bytes one user may upload in 24 hours, counted in the database across instances. */
    dailyBytesPerUser: number;
  };
  smtpUrl?: string;
  mailFrom: string;
  storage: {
    kind: "local" | "s3";
    s3: {
      bucket?: string;
      region: string;
      endpoint?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
    };
  };
  sessionSecret: string;
  dataKey: Buffer;
  adminEmails: string[];
  rateLimitScale: number;
  /** Transfer requests one customer may create per New York day (a business cap, not scaled by RATE_LIMIT_SCALE). */
  transferDailyCountLimit: number;
  /** How often each instance looks for due scheduled transfers (decision 036). */
  schedulePollMs: number;
  /** ACCOUNT_RETENTION_YEARS: a closed account's identity data is erased this long after closure. */
  accountRetentionYears: number;
  /** How long a dashboard poll's ETag is answered from memory before the database is asked again (0: never). */
  pollMemoryMs: number;
  cookieSecure: boolean;
  /**
   * Base of links in mail: PUBLIC_URL, or outside production `http://localhost:PORT` when it is unset
   * (passkeys need a host name, and a link should open where they work). Undefined only in production
   * without PUBLIC_URL.
   */
  publicUrl?: string;
  /** True when publicUrl is that development default: passkeys then accept any localhost port (Vite's too). */
  publicUrlIsDefault?: boolean;
  logLevel: string;
  redisUrl?: string;
  /** Prepended to every Redis key, so several deployments (or test files) can share one Redis. */
  redisKeyPrefix: string;
  /**
   * Which proxies may tell us the client's address: false (none: the socket's peer is the client), a hop
   * count, or proxy addresses/CIDRs. Either way X-Forwarded-For is read from the right, never the leftmost
   * entry a client can forge.
   */
  trustProxy: false | number | string[];
  /** Admins must enrol a second factor before any /api/admin call succeeds (off only outside production). */
  adminRequire2fa: boolean;
  /** Money in strictly above this (cents) needs a second staff member (maker-checker). */
  approvalThresholdCents: number;
  /** A name matches a listed one at this Jaro–Winkler-based score or above (bench/SCREENING.md). */
  sanctionsNameThreshold: number;
  /** Who files the SAR and OFAC reports (FILING_INSTITUTION_*, decision 055). */
  filingInstitution: FilingInstitution;
  /** The payer on Form 1099-INT and the transmitter of its Publication 1220 file (PAYER_*, IRS_*, decision 070). */
  taxPayer: TaxPayer;
  /** Bearer token for /metrics; unset → /metrics answers only outside production or a direct loopback scrape. */
  metricsToken?: string;
  /** Chain settlement (CHAIN_RPC_URL and friends); undefined: manual settlement, as the spec describes. */
  chain?: ChainConfig;
};

/** "2" → 2 hops; "10.0.0.0/8, 127.0.0.1" → that list; anything else (including "true") → null. */
export function parseTrustProxy(value: string): false | number | string[] | null {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops <= 10 ? hops || false : null;
  }
  const entries = trimmed
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const isAddressOrCidr = (entry: string) => {
    const [address, bits, ...rest] = entry.split("/");
    const family = isIP(address ?? "");
    if (!family || rest.length > 0) return false;
    if (bits === undefined) return true;
    return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  };
  return entries.length > 0 && entries.every(isAddressOrCidr) ? entries : null;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

interface Secrets {
  sessionSecret: string;
  dataKey: string;
}

/** Outside production, missing secrets are generated once and kept in $DATA_DIR so restarts keep sessions and data readable. */
function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, "secrets.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Secrets;
  } catch {
    const secrets = {
      sessionSecret: randomBytes(32).toString("hex"),
      dataKey: randomBytes(32).toString("hex"),
    };
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
    return secrets;
  }
}

/** Reads the environment into a typed config; a bad value fails fast with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";
  const dataDir = path.resolve(e.DATA_DIR);

  if (isProduction && (!e.SESSION_SECRET || !e.DATA_KEY)) {
    throw new ConfigError("Invalid configuration:\n  SESSION_SECRET and DATA_KEY are required in production");
  }
  if (isProduction && e.ADMIN_REQUIRE_2FA !== undefined && !isOn(e.ADMIN_REQUIRE_2FA)) {
    throw new ConfigError(
      "Invalid configuration:\n  ADMIN_REQUIRE_2FA cannot be turned off in production: staff must use a second factor",
    );
  }
  if (e.STORAGE === "s3" && !e.S3_BUCKET) {
    throw new ConfigError("Invalid configuration:\n  S3_BUCKET is required when STORAGE=s3");
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      "Invalid configuration:\n  HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (headers are part of the request)",
    );
  }
  const chain = parseChainConfig(env);
  if (chain.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${chain.problems.map((p) => `  ${p}`).join("\n")}`);
  }
  const filing = parseFilingInstitution(env);
  if (filing.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${filing.problems.map((p) => `  ${p}`).join("\n")}`);
  }
  const tax = parseTaxPayer(env);
  if (tax.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${tax.problems.map((p) => `  ${p}`).join("\n")}`);
  }
  const generated = !e.SESSION_SECRET || !e.DATA_KEY ? loadOrCreateSecrets(dataDir) : undefined;

  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseQueryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    http: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    },
    events: { streamsPerUser: e.EVENT_STREAMS_PER_USER, streamsMax: e.EVENT_STREAMS_MAX },
    maxSessionsPerUser: e.MAX_SESSIONS_PER_USER,
    uploads: {
      maxConcurrentPerUser: e.MAX_CONCURRENT_UPLOADS_PER_USER,
      dailyBytesPerUser: e.UPLOAD_DAILY_BYTES_PER_USER,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    storage: {
      kind: e.STORAGE,
      s3: {
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: isOn(e.S3_FORCE_PATH_STYLE) || Boolean(e.S3_ENDPOINT),
      },
    },
    sessionSecret: e.SESSION_SECRET ?? generated!.sessionSecret,
    dataKey: Buffer.from(e.DATA_KEY ?? generated!.dataKey, "hex"),
    adminEmails: e.ADMIN_EMAILS.split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    rateLimitScale: e.RATE_LIMIT_SCALE,
    transferDailyCountLimit: e.TRANSFER_DAILY_COUNT_LIMIT,
    schedulePollMs: e.SCHEDULE_POLL_MS,
    accountRetentionYears: e.ACCOUNT_RETENTION_YEARS,
    pollMemoryMs: e.POLL_MEMORY_MS,
    cookieSecure: e.COOKIE_SECURE === undefined ? isProduction : isOn(e.COOKIE_SECURE),
    publicUrl: e.PUBLIC_URL ?? (isProduction ? undefined : `http://localhost:${e.PORT}`),
    publicUrlIsDefault: e.PUBLIC_URL === undefined && !isProduction,
    logLevel: e.LOG_LEVEL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    trustProxy: e.TRUST_PROXY === undefined ? false : (parseTrustProxy(e.TRUST_PROXY) ?? false),
    metricsToken: e.METRICS_TOKEN,
    chain: chain.chain,
    // Tests and the e2e server run with NODE_ENV=test, where staff fixtures have no factor unless a test turns it on.
    approvalThresholdCents:
      e.APPROVAL_THRESHOLD === undefined
        ? DEFAULT_APPROVAL_THRESHOLD_CENTS
        : parseMoney(e.APPROVAL_THRESHOLD)!,
    sanctionsNameThreshold: e.SANCTIONS_NAME_THRESHOLD,
    filingInstitution: filing.institution,
    taxPayer: tax.payer,
    adminRequire2fa: e.ADMIN_REQUIRE_2FA === undefined ? e.NODE_ENV !== "test" : isOn(e.ADMIN_REQUIRE_2FA),
  };
}

/**
 * The start banner's second line outside production: the address to open (e-mail links and passkeys use it,
 * and passkeys cannot work on 127.0.0.1) and, without SMTP_URL, the dev mailbox's. Undefined in production.
 */
export function developmentBanner(
  config: Pick<Config, "isProduction" | "publicUrl" | "publicUrlIsDefault" | "smtpUrl">,
): string | undefined {
  if (config.isProduction || !config.publicUrl) return undefined;
  const base = config.publicUrl.replace(/\/+$/, "");
  const open = `Open ${base} (${config.publicUrlIsDefault ? "PUBLIC_URL unset: " : ""}e-mail links and passkeys use it)`;
  return config.smtpUrl ? open : `${open}; mail is kept in the dev mailbox at ${base}/dev/mailbox`;
}
