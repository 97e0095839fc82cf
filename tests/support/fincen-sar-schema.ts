import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const SCHEMA = path.join(import.meta.dirname, "../../server/features/compliance/fincen-sar-subset.xsd");

/**
 * libxml2 (xmllint) validates a SAR batch against Pillar's subset of FinCEN's schema (decision 055): answers its
 * complaints, or "" when the file is valid.
 */
export function xmllintAgainstSchema(xml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sar-xsd-"));
  const file = path.join(dir, "sar.xml");
  fs.writeFileSync(file, xml);
  try {
    execFileSync("xmllint", ["--noout", "--schema", SCHEMA, file], { stdio: "pipe" });
    return "";
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
