#!/usr/bin/env node
// Regenerates web/fonts/inter-basic-wght.woff2: Inter's variable latin file (@fontsource-variable/inter, 48 KB)
// cut to the characters the product's own texts use (26 KB). web/styles.css declares it after the full latin
// face, so the browser tries it first and fetches the full file only for a character it lacks (an "é" in a
// name). Needs Debian's python3-fonttools and python3-brotli; the output is committed, so builds do not.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BASIC_UNICODE_RANGE } from "./font-range.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2");
const output = path.join(root, "web/fonts/inter-basic-wght.woff2");
const { status } = spawnSync(
  "/usr/bin/python3",
  [
    "-m",
    "fontTools.subset",
    source,
    `--unicodes=${BASIC_UNICODE_RANGE}`,
    "--layout-features=kern,liga,calt,ccmp,locl,mark,mkmk,tnum",
    "--flavor=woff2",
    `--output-file=${output}`,
  ],
  { stdio: "inherit" },
);
process.exit(status ?? 1);
