import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, developmentBanner, loadConfig } from "@/server/config";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "pillar-config-"));

describe("loadConfig", () => {
  it("runs on embedded defaults with no environment", () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(5000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.storage.kind).toBe("local");
    expect(config.rateLimitScale).toBe(1);
    expect(config.databaseQueryTimeoutMs).toBe(15_000);
    expect(config.dataKey).toHaveLength(32);
  });

  it("reads APPROVAL_THRESHOLD in dollars ($1,000.00 by default) and refuses anything else", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).approvalThresholdCents).toBe(100_000);
    expect(loadConfig({ DATA_DIR: tmp(), APPROVAL_THRESHOLD: "2500.50" }).approvalThresholdCents).toBe(
      250_050,
    );
    expect(loadConfig({ DATA_DIR: tmp(), APPROVAL_THRESHOLD: "$1,000" }).approvalThresholdCents).toBe(
      100_000,
    );
    expect(loadConfig({ DATA_DIR: tmp(), APPROVAL_THRESHOLD: "0" }).approvalThresholdCents).toBe(0);
    for (const bad of ["abc", "-1", "1.001", "1e3"]) {
      expect(() => loadConfig({ DATA_DIR: tmp(), APPROVAL_THRESHOLD: bad })).toThrow(/APPROVAL_THRESHOLD/);
    }
  });

  it("reads the 1099-INT payer from PAYER_* and IRS_* with embedded defaults, naming a bad one", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).taxPayer).toMatchObject({
      name: "Pillar Bank, N.A.",
      tin: "000000000",
      state: "NY",
      tcc: "00000",
    });
    const set = loadConfig({ DATA_DIR: tmp(), PAYER_TIN: "123456789", PAYER_STATE: "ca", IRS_TCC: "ab12c" });
    expect(set.taxPayer).toMatchObject({ tin: "123456789", state: "CA", tcc: "AB12C" });
    expect(() => loadConfig({ DATA_DIR: tmp(), PAYER_TIN: "12-3456789" })).toThrow(
      /PAYER_TIN must be 9 digits/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), PAYER_NAME: "x".repeat(41) })).toThrow(/PAYER_NAME/);
    expect(() => loadConfig({ DATA_DIR: tmp(), IRS_TCC: "TOOLONG" })).toThrow(/IRS_TCC/);
  });

  it("trusts no proxy unless TRUST_PROXY names hops or proxy addresses", () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
    ]);
    for (const bad of ["true", "yes", "11", "10.0.0.0/33", "proxy.internal", "10.0.0.1/8/1"]) {
      expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("defaults PUBLIC_URL to http://localhost:PORT outside production, and says so at start", () => {
    const dev = loadConfig({ DATA_DIR: tmp(), PORT: "5123" });
    expect(dev.publicUrl).toBe("http://localhost:5123");
    expect(dev.publicUrlIsDefault).toBe(true);
    expect(developmentBanner(dev)).toBe(
      "Open http://localhost:5123 (PUBLIC_URL unset: e-mail links and passkeys use it); mail is kept in the dev mailbox at http://localhost:5123/dev/mailbox",
    );
    const test = loadConfig({ DATA_DIR: tmp(), NODE_ENV: "test" });
    expect(test.publicUrl).toBe("http://localhost:5000");

    const given = loadConfig({
      DATA_DIR: tmp(),
      PUBLIC_URL: "https://bank.example",
      SMTP_URL: "smtp://mx:25",
    });
    expect(given.publicUrl).toBe("https://bank.example");
    expect(given.publicUrlIsDefault).toBe(false);
    expect(developmentBanner(given)).toBe("Open https://bank.example (e-mail links and passkeys use it)");

    // Production is unchanged: no default (passkeys answer 403 until PUBLIC_URL is set), no banner.
    const secrets = { SESSION_SECRET: "s".repeat(32), DATA_KEY: "a".repeat(64) };
    const production = loadConfig({ DATA_DIR: tmp(), NODE_ENV: "production", ...secrets });
    expect(production.publicUrl).toBeUndefined();
    expect(production.publicUrlIsDefault).toBe(false);
    expect(developmentBanner(production)).toBeUndefined();
  });

  it("keeps generated secrets across restarts", () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.dataKey.equals(first.dataKey)).toBe(true);
  });

  it("fails fast naming a bad PORT", () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: "abc" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: "abc" })).toThrow(/PORT: PORT must be a number/);
  });

  it("fails fast naming a bad DATABASE_QUERY_TIMEOUT_MS", () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_QUERY_TIMEOUT_MS: "soon" })).toThrow(
      /DATABASE_QUERY_TIMEOUT_MS must be a number/,
    );
  });

  it("reads hostile-client limits, with defaults, and refuses headers allowed longer than the request", () => {
    const config = loadConfig({ DATA_DIR: tmp(), MAX_CONNECTIONS_PER_IP: "8" });
    expect(config.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 15_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 4096,
      maxConnectionsPerIp: 8,
    });
    expect(() => loadConfig({ DATA_DIR: tmp(), MAX_CONNECTIONS: "0" })).toThrow(
      /MAX_CONNECTIONS: MAX_CONNECTIONS must be at least 1/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: tmp(), REQUEST_TIMEOUT_MS: "1000", HEADERS_TIMEOUT_MS: "2000" }),
    ).toThrow(/HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS/);
  });

  it("reads the stream and session caps per account, with defaults", () => {
    const config = loadConfig({ DATA_DIR: tmp() });
    expect(config.events).toEqual({ streamsPerUser: 8, streamsMax: undefined });
    expect(config.maxSessionsPerUser).toBe(10);
    const set = loadConfig({
      DATA_DIR: tmp(),
      EVENT_STREAMS_PER_USER: "3",
      EVENT_STREAMS_MAX: "500",
      MAX_SESSIONS_PER_USER: "4",
    });
    expect(set.events).toEqual({ streamsPerUser: 3, streamsMax: 500 });
    expect(set.maxSessionsPerUser).toBe(4);
    expect(() => loadConfig({ DATA_DIR: tmp(), MAX_SESSIONS_PER_USER: "0" })).toThrow(
      /MAX_SESSIONS_PER_USER must be at least 1/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), EVENT_STREAMS_MAX: "many" })).toThrow(
      /EVENT_STREAMS_MAX must be a number/,
    );
  });

  it("refuses a DATABASE_URL that is not PostgreSQL", () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });

  it("requires secrets in production", () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), NODE_ENV: "production" })).toThrow(
      /SESSION_SECRET and DATA_KEY/,
    );
  });

  it("reads METRICS_TOKEN and refuses one too short to be a secret", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: "a".repeat(32) }).metricsToken).toBe("a".repeat(32));
    expect(() => loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });

  it("requires a second factor for admins by default, and refuses turning that off in production", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).adminRequire2fa).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), NODE_ENV: "test" }).adminRequire2fa).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), ADMIN_REQUIRE_2FA: "0" }).adminRequire2fa).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), NODE_ENV: "test", ADMIN_REQUIRE_2FA: "1" }).adminRequire2fa).toBe(
      true,
    );
    const production = {
      DATA_DIR: tmp(),
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(64),
      DATA_KEY: "b".repeat(64),
    };
    expect(loadConfig(production).adminRequire2fa).toBe(true);
    expect(() => loadConfig({ ...production, ADMIN_REQUIRE_2FA: "false" })).toThrow(
      /ADMIN_REQUIRE_2FA cannot be turned off in production/,
    );
  });

  it("reads admin e-mails case-insensitively", () => {
    const config = loadConfig({ DATA_DIR: tmp(), ADMIN_EMAILS: " Boss@Pillar.test, ops@pillar.test ," });
    expect(config.adminEmails).toEqual(["boss@pillar.test", "ops@pillar.test"]);
  });
});
