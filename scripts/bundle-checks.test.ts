import { describe, expect, it } from "vitest";
import { findAdminCode, type Manifest, staticClosure } from "./bundle-checks.mjs";

const manifest: Manifest = {
  "index.html": {
    file: "assets/index.js",
    isEntry: true,
    imports: ["_shared.js"],
    dynamicImports: ["features/dashboard/dashboard-page.tsx", "features/admin/admin-page.tsx"],
  },
  "_shared.js": { file: "assets/shared.js" },
  "features/dashboard/dashboard-page.tsx": { file: "assets/dashboard-page.js", isDynamicEntry: true },
  "features/admin/admin-page.tsx": {
    file: "assets/admin-page.js",
    isDynamicEntry: true,
    imports: ["_shared.js"],
  },
};
const chunkModules = {
  "assets/index.js": ["web/main.tsx", "web/app/router.tsx"],
  "assets/shared.js": ["web/components/ui/button.tsx"],
  "assets/dashboard-page.js": ["web/features/dashboard/dashboard-page.tsx"],
  "assets/admin-page.js": ["web/features/admin/admin-page.tsx"],
};

describe("the admin-code check", () => {
  it("passes when admin code is only behind a dynamic import", () => {
    expect(findAdminCode(manifest, chunkModules, "features/dashboard/dashboard-page.tsx")).toEqual([]);
  });

  it("follows static imports only", () => {
    expect([...staticClosure(manifest, ["index.html"])].sort()).toEqual(["_shared.js", "index.html"]);
  });

  it("fails when a non-admin page statically imports an admin chunk", () => {
    const leaky: Manifest = {
      ...manifest,
      "features/dashboard/dashboard-page.tsx": {
        file: "assets/dashboard-page.js",
        imports: ["features/admin/admin-page.tsx"],
      },
    };
    expect(findAdminCode(leaky, chunkModules, "features/dashboard/dashboard-page.tsx")).toEqual([
      "features/admin/admin-page.tsx (in assets/admin-page.js)",
      "web/features/admin/admin-page.tsx (in assets/admin-page.js)",
    ]);
  });

  it("fails when admin modules were merged into a shared chunk the page loads", () => {
    const merged = {
      ...chunkModules,
      "assets/shared.js": ["web/components/ui/button.tsx", "web/features/admin/api/get-admin-stats.ts"],
    };
    expect(findAdminCode(manifest, merged, "features/dashboard/dashboard-page.tsx")).toEqual([
      "web/features/admin/api/get-admin-stats.ts (in assets/shared.js)",
    ]);
  });

  it("fails when the entry chunk itself carries admin code", () => {
    const merged = { ...chunkModules, "assets/index.js": ["web/main.tsx", "web/features/admin/kyc/x.tsx"] };
    expect(findAdminCode(manifest, merged, "features/dashboard/dashboard-page.tsx")).toEqual([
      "web/features/admin/kyc/x.tsx (in assets/index.js)",
    ]);
  });
});
