import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Docs that stay true: every repository path README.md and docs/ name in backticks, and every relative link
 * they make, must exist. What counts as a path:
 * - a span with no space whose first segment is one of the repository's top-level entries (`server/...`,
 *   `web/...`, `docs/...`, `.ci/run`, `Dockerfile`); a trailing `/` asks for a folder, `:12` (a line) and
 *   `#anchor` are ignored;
 * - a bare file name with a source extension (`create-transfer.ts`, `first-load.e2e.test.ts`): some file
 *   of that name must exist somewhere in the repository; a path below a folder the text names just before
 *   (`transfers/send-money-gate.api.test.ts`) must be the end of some file's path;
 * - an import specifier without its extension (`web/app/server-render`) resolves as TypeScript would;
 * - globs and placeholders match at least one entry: `*`, `**`, `{a,b}`, and `<area>` for one segment.
 * Not paths: URL paths (`/api/...`, `/dashboard`), URLs, anything with `$` (`$DATA_DIR/pg.lock`), commands
 * with spaces, and what is built or written at run time (`dist/...`, `./data/...`), which no checkout holds.
 * Code blocks fenced with ``` are commands and configs, not references, and are skipped.
 */
const root = path.resolve(import.meta.dirname, "..");

/** Never part of a checkout: installed, built or written at run time (.gitignore). */
const NOT_IN_THE_REPOSITORY = new Set([
  ".git",
  "node_modules",
  "dist",
  "data",
  "shots",
  "coverage",
  "test-results",
]);
const SOURCE_FILE = /^[\w.-]+\.(ts|tsx|mts|mjs|sql)$/;
const IMPORT_EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs"];

interface Tree {
  files: string[];
  folders: string[];
}

function walk(dir = "", tree: Tree = { files: [], folders: [] }): Tree {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (!dir && NOT_IN_THE_REPOSITORY.has(entry.name)) continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      tree.folders.push(relative);
      walk(relative, tree);
    } else tree.files.push(relative);
  }
  return tree;
}

const tree = walk();
const topLevel = new Set([...tree.files, ...tree.folders].filter((entry) => !entry.includes("/")));
const fileNames = new Set(tree.files.map((file) => path.posix.basename(file)));

function docFiles(): string[] {
  return ["README.md", ...tree.files.filter((file) => file.startsWith("docs/") && file.endsWith(".md"))];
}

/** Inline code spans outside fenced blocks, with their line numbers. */
function backticked(text: string): { span: string; line: number }[] {
  const spans: { span: string; line: number }[] = [];
  let fenced = false;
  text.split("\n").forEach((line, index) => {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    else if (!fenced)
      for (const m of line.matchAll(/`([^`]+)`/g)) spans.push({ span: m[1]!, line: index + 1 });
  });
  return spans;
}

/** A glob or placeholder path as a regular expression over repository-relative paths. */
function pattern(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith("**/", i)) {
      source += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      source += ".*";
      i += 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "{") {
      const end = glob.indexOf("}", i);
      source += `(?:${glob
        .slice(i + 1, end)
        .split(",")
        .map((part) => part.replace(/[.+^$()|[\]\\]/g, "\\$&"))
        .join("|")})`;
      i = end;
    } else if (c === "<") {
      source += "[^/]+";
      i = glob.indexOf(">", i);
    } else source += c.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** Why `span` names nothing in the repository, or undefined when it exists or is not a repository path. */
function missing(span: string): string | undefined {
  if (/\s|\$|:\/\//.test(span) || span.startsWith("/")) return undefined;
  const name = span
    .replace(/^\.\//, "")
    .replace(/#.*$/, "")
    .replace(/:\d+(-\d+)?$/, "");
  if (!name.includes("/")) {
    if (topLevel.has(name) || !SOURCE_FILE.test(name)) return undefined;
    return fileNames.has(name) ? undefined : "no file of this name in the repository";
  }
  if (!topLevel.has(name.split("/")[0]!)) {
    if (!SOURCE_FILE.test(path.posix.basename(name)) || /[*{<]/.test(name)) return undefined;
    return tree.files.some((file) => file.endsWith(`/${name}`)) ? undefined : "no file's path ends so";
  }
  const wantsFolder = name.endsWith("/");
  const bare = name.replace(/\/$/, "");
  const candidates = wantsFolder ? tree.folders : [...tree.files, ...tree.folders];
  if (/[*{<]/.test(bare)) {
    const re = pattern(bare);
    return candidates.some((entry) => re.test(entry)) ? undefined : "matches nothing";
  }
  const resolved = wantsFolder ? [bare] : [bare, ...IMPORT_EXTENSIONS.map((extension) => bare + extension)];
  if (resolved.some((entry) => candidates.includes(entry))) return undefined;
  return wantsFolder ? "no such folder" : "no such file or folder";
}

/** Relative Markdown link targets that do not exist, resolved from the document's folder. */
function brokenLinks(doc: string, text: string): string[] {
  const broken: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
    const file = path.posix.normalize(path.posix.join(path.posix.dirname(doc), target.replace(/#.*$/, "")));
    if (!fs.existsSync(path.join(root, file))) broken.push(`${doc}: (${target}) → ${file}`);
  }
  return broken;
}

describe("the paths the docs name", () => {
  const docs = docFiles();

  it("finds the README and the docs", () => {
    expect(docs).toContain("README.md");
    expect(docs).toContain("docs/operations.md");
    expect(docs.filter((doc) => doc.startsWith("docs/decisions/")).length).toBeGreaterThan(10);
  });

  it("exist, for every backticked repository path in README.md and docs/", () => {
    const stale: string[] = [];
    for (const doc of docs) {
      for (const { span, line } of backticked(fs.readFileSync(path.join(root, doc), "utf8"))) {
        const why = missing(span);
        if (why) stale.push(`${doc}:${line}: \`${span}\` (${why})`);
      }
    }
    expect(stale).toEqual([]);
  });

  it("exist, for every relative link in README.md and docs/", () => {
    expect(docs.flatMap((doc) => brokenLinks(doc, fs.readFileSync(path.join(root, doc), "utf8")))).toEqual(
      [],
    );
  });

  it("opens every decision record with its Date, Status and Supersedes lines", () => {
    const records = docs.filter((doc) => /^docs\/decisions\/\d{3}-/.test(doc));
    for (const record of records) {
      const head = fs.readFileSync(path.join(root, record), "utf8").split("\n\n").slice(1, 4);
      expect(head[0], record).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/);
      expect(head[1], record).toMatch(/^Status: (accepted|superseded)/);
      expect(head[2], record).toMatch(/^Supersedes: /);
    }
  });

  it("tells a stale path from a live one, a glob, a placeholder and what is not a path", () => {
    expect(missing("server/app.ts")).toBeUndefined();
    expect(missing("server/app.ts:78")).toBeUndefined();
    expect(missing("server/features/")).toBeUndefined();
    expect(missing("server/features/<area>/")).toBeUndefined();
    expect(missing("tests/e2e/*.e2e.test.ts")).toBeUndefined();
    expect(missing("{contract,server,web,scripts}/**/*.test.{ts,tsx}")).toBeUndefined();
    expect(missing("create-transfer.ts")).toBeUndefined();
    expect(missing("transfers/create-transfer.ts")).toBeUndefined();
    expect(missing("web/app/server-render")).toBeUndefined();
    expect(missing(".ci/run")).toBeUndefined();
    for (const notAPath of [
      "/api/auth/user",
      "dist/server/main.js",
      "./data/pg",
      "$DATA_DIR/pg.lock",
      "npm start",
    ])
      expect(missing(notAPath), notAPath).toBeUndefined();
    expect(missing("server/lib/no-such-file.ts")).toBe("no such file or folder");
    expect(missing("server/app.ts/")).toBe("no such folder");
    expect(missing("web/features/*.nothing")).toBe("matches nothing");
    expect(missing("no-such-module.ts")).toBe("no file of this name in the repository");
    expect(missing("transfers/no-such-module.ts")).toBe("no file's path ends so");
  });
});
