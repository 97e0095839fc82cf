import fs from "node:fs";
import path from "node:path";
import { validateXML } from "xmllint-wasm";

const SCHEMA = path.join(import.meta.dirname, "../../server/features/compliance/fincen-sar-subset.xsd");

/**
 * libxml2 (xmllint, compiled to WebAssembly: no system package needed) validates a SAR batch against Pillar's
 * subset of FinCEN's schema (decision 055): answers its complaints, or "" when the file is valid.
 */
export async function xmllintAgainstSchema(xml: string): Promise<string> {
  const result = await validateXML({
    xml: [{ fileName: "sar.xml", contents: xml }],
    schema: [{ fileName: "fincen-sar-subset.xsd", contents: fs.readFileSync(SCHEMA, "utf8") }],
  });
  return result.valid ? "" : result.rawOutput || result.errors.map((e) => e.rawMessage).join("\n");
}
