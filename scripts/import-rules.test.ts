import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** A tiny repository: each file imports the ones listed (through the @/ alias, as the real code does). */
const FILES: Record<string, string[]> = {
  "contract/money.ts": ["server/lib/csv.ts"],
  "server/lib/csv.ts": ["web/lib/format.ts"],
  "server/app.ts": ["web/app/server-render.tsx", "web/lib/format.ts"],
  "server/features/statements/render.ts": [
    "server/features/transfers/view.ts",
    "server/features/chat/routes.ts",
  ],
  "server/features/transfers/view.ts": [],
  "server/features/chat/routes.ts": [],
  "server/features/newarea/thing.ts": ["server/lib/csv.ts"],
  "web/app/server-render.tsx": [],
  "web/app/router.tsx": ["web/features/chat/contact-page.tsx", "web/features/chat/components/list.tsx"],
  "web/lib/format.ts": [],
  "web/lib/cycle-a.ts": ["web/lib/cycle-b.ts"],
  "web/lib/cycle-b.ts": ["web/lib/cycle-a.ts"],
  "web/lib/query.ts": ["web/features/chat/api/get-messages.ts"],
  "web/components/amount.tsx": ["server/lib/csv.ts"],
  "web/features/chat/contact-page.tsx": ["web/features/transfers/components/money-input.tsx"],
  // auth may import transfers and kyc (WEB_AREA_DEPS): through their api/ and admin/api/ folders.
  "web/features/auth/settings-page.tsx": [
    "web/features/transfers/api/create-transfer.ts",
    "web/features/kyc/admin/api/get-applications.ts",
  ],
  "web/features/chat/components/list.tsx": [],
  "web/features/chat/api/get-messages.ts": [],
  "web/features/transfers/api/create-transfer.ts": [],
  "web/features/transfers/components/money-input.tsx": [],
  "web/features/kyc/admin/api/get-applications.ts": [],
  "web/features/kyc/admin/kyc-tab.tsx": [],
  "web/features/back-office/admin-page.tsx": ["web/features/kyc/admin/kyc-tab.tsx"],
  // The Settings page shows another area's own settings card, and nothing else of it but its api/.
  "web/features/auth/settings/settings-page.tsx": [
    "web/features/transfers/settings/limits-card.tsx",
    "web/features/transfers/components/money-input.tsx",
  ],
  "web/features/transfers/settings/limits-card.tsx": [],
};

/** The ground floor and the areas' graphs: indirect imports count, undeclared and unlisted areas are refused. */
const GRAPH_FILES: Record<string, string[]> = {
  "contract/money.ts": [],
  "server/lib/session.ts": ["server/config.ts"],
  "server/config.ts": ["server/lib/chain-config.ts"],
  "server/lib/chain-config.ts": ["server/features/settlement/contracts/artifact.ts"],
  "server/features/settlement/contracts/artifact.ts": [],
  "server/features/settlement/chain-client.ts": ["server/lib/chain-config.ts"],
  "web/features/credits/admin/api/pay.ts": ["web/features/users/admin/api/get-users.ts"],
  "web/features/users/admin/api/get-users.ts": [],
  "web/features/users/admin/user-dialog.tsx": ["web/features/credits/admin/api/pay.ts"],
  "web/features/newarea/page.tsx": ["web/lib/format.ts"],
  "web/lib/format.ts": [],
};

function writeRepository(files: Record<string, string[]>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-import-rules-"));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "ESNext",
        moduleResolution: "bundler",
        jsx: "react-jsx",
        paths: { "@/*": ["./*"] },
      },
    }),
  );
  for (const [file, imports] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    const lines = imports.map((i) => `import "@/${i.replace(/\.tsx?$/, "")}";`);
    fs.writeFileSync(path.join(dir, file), `${lines.join("\n")}\nexport const x = 1;\n`);
  }
  return dir;
}

let dir: string;
let graphDir: string;
beforeAll(() => {
  dir = writeRepository(FILES);
  graphDir = writeRepository(GRAPH_FILES);
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(graphDir, { recursive: true, force: true });
});

function violations(cwd = dir): string[] {
  const args = [
    path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs"),
    "contract",
    "server",
    "web",
    "--config",
    path.join(root, ".dependency-cruiser.cjs"),
    "--output-type",
    "json",
  ];
  let out: string;
  try {
    out = execFileSync(process.execPath, args, { cwd, encoding: "utf8" });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  const { summary } = JSON.parse(out) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe("the import rules (.dependency-cruiser.cjs)", () => {
  it("refuse each kind of forbidden import, and only those", { timeout: 60_000 }, () => {
    expect(violations()).toEqual(
      [
        "contract-is-the-bottom: contract/money.ts → server/lib/csv.ts",
        "server-never-imports-web: server/lib/csv.ts → web/lib/format.ts",
        "server-never-imports-web: server/app.ts → web/app/server-render.tsx",
        "server-never-imports-web: server/app.ts → web/lib/format.ts",
        "web-never-imports-server: web/components/amount.tsx → server/lib/csv.ts",
        "server-area-deps-statements: server/features/statements/render.ts → server/features/chat/routes.ts",
        "server-area-is-declared: server/features/newarea/thing.ts → server/lib/csv.ts",
        "web-shared-code-stays-below-features: web/lib/query.ts → web/features/chat/api/get-messages.ts",
        "feature-imports-another-only-through-api: web/features/chat/contact-page.tsx → web/features/transfers/components/money-input.tsx",
        "app-imports-pages-and-api: web/app/router.tsx → web/features/chat/components/list.tsx",
        "settings-page-composes-area-cards: web/features/auth/settings/settings-page.tsx → web/features/transfers/components/money-input.tsx",
        "no-circular: web/lib/cycle-a.ts → web/lib/cycle-b.ts",
      ].sort(),
    );
  });

  it("keep the ground floor off the features, even indirectly, and areas to their tables", {
    timeout: 60_000,
  }, () => {
    expect(violations(graphDir)).toEqual(
      [
        "server-lib-stays-below-features: server/lib/chain-config.ts → server/features/settlement/contracts/artifact.ts",
        "server-ground-floor-never-reaches-features: server/config.ts → server/features/settlement/contracts/artifact.ts",
        "server-ground-floor-never-reaches-features: server/lib/chain-config.ts → server/features/settlement/contracts/artifact.ts",
        "server-ground-floor-never-reaches-features: server/lib/session.ts → server/features/settlement/contracts/artifact.ts",
        "web-area-deps-users: web/features/users/admin/user-dialog.tsx → web/features/credits/admin/api/pay.ts",
        "web-area-is-declared: web/features/newarea/page.tsx → web/lib/format.ts",
      ].sort(),
    );
  });
});
