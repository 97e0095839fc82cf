/**
 * The import rules, in one place (docs/architecture.md "Import rules", decision 021). `npm run lint:imports`
 * fails on any violation; `npm run deps:report` prints the graph's summary.
 *
 * Layers: contract/ at the bottom; server/ and web/ beside each other above it, neither importing the other.
 * Areas: a web feature imports another feature only through its `api/` folder (or `admin/api/` for its back
 * office); the web's areas depend on each other only along WEB_AREA_DEPS, the server's along SERVER_AREA_DEPS,
 * both acyclic. The server's ground floor (server/lib, server/db, server/config.ts) reaches no feature at all.
 */

/**
 * Which server area may import which: a directed graph with no cycle. The server's areas have no `api/`
 * folder yet: an edge here is the whole of what one area may reach in another.
 */
const SERVER_AREA_DEPS = {
  accounts: ["kyc"],
  admin: ["approvals"],
  auth: ["compliance", "security"],
  chat: ["kyc"],
  closure: ["auth"],
  compliance: [],
  events: [],
  kyc: ["approvals", "compliance"],
  monitoring: ["compliance"],
  notifications: [],
  credits: ["accounts", "approvals", "auth", "kyc", "monitoring"],
  security: ["chat"],
  settlement: ["approvals", "compliance", "credits", "monitoring", "transfers"],
  staff: ["auth"],
  recipients: ["compliance"],
  savings: ["approvals", "transfers"],
  schedules: ["auth", "compliance", "notifications", "recipients", "security", "transfers"],
  statements: ["transfers"],
  // Pays by $tag through the transfers area's limit day, refusals and shared creation limits (creation-limits.ts).
  "tag-payments": ["auth", "security", "transfers"],
  transfers: ["approvals", "auth", "compliance", "monitoring", "recipients", "security"],
};

/**
 * Which web area may import which, the same way: a directed graph with no cycle. An area imports another
 * through its api/ folder (admin/api/ for its back office); the back office (web/features/back-office) composes
 * the areas' tabs and sits on top. Shared pieces sit below every area: web/lib (the account summary, recent
 * transactions, the current user) and web/components (web/components/admin/admin-keys.ts and admin-money.ts: the back office's
 * money lists' keys and their one refresh).
 */
const WEB_AREA_DEPS = {
  accounts: ["chat", "content", "kyc", "savings", "schedules", "transfers"],
  approvals: [],
  audit: [],
  auth: ["accounts", "audit", "kyc", "transfers"],
  "back-office": [
    "approvals",
    "audit",
    "chat",
    "kyc",
    "credits",
    "savings",
    "settlement",
    "staff",
    "transfers",
    "users",
  ],
  chat: [],
  compliance: ["kyc", "monitoring"],
  content: ["kyc", "users"],
  kyc: [],
  marketing: [],
  monitoring: [],
  notifications: [],
  credits: ["users"],
  recipients: [],
  savings: ["schedules"],
  schedules: ["recipients"],
  security: [],
  settlement: [],
  staff: [],
  statements: [],
  "tag-payments": ["transfers"],
  transfers: ["recipients"],
  users: [],
};

/**
 * An area graph must stay acyclic: only the edges a table lists are allowed, so a cycle in the table is the only
 * way areas could form one. Checked when the config loads, so `npm run lint:imports` fails on it.
 */
function assertAcyclic(name, table) {
  const state = new Map();
  const visit = (area, path) => {
    if (state.get(area) === "done") return;
    if (state.get(area) === "open") {
      throw new Error(`${name} has a cycle: ${[...path.slice(path.indexOf(area)), area].join(" → ")}`);
    }
    state.set(area, "open");
    for (const next of table[area] ?? []) visit(next, [...path, area]);
    state.set(area, "done");
  };
  for (const area of Object.keys(table)) visit(area, []);
}
assertAcyclic("SERVER_AREA_DEPS", SERVER_AREA_DEPS);
assertAcyclic("WEB_AREA_DEPS", WEB_AREA_DEPS);

/** The server's ground floor: the features and the app are built on it, it is built on nothing of theirs. */
const GROUND_FLOOR = "^server/(lib/|db/|config\\.ts$)";

/** Test files may reach across areas (fixtures), never across layers. */
const TESTS = "\\.test\\.tsx?$";

module.exports = {
  forbidden: [
    {
      name: "contract-is-the-bottom",
      comment:
        "contract/ holds the zod schemas both sides share: it imports nothing of the server or the web.",
      severity: "error",
      from: { path: "^contract/" },
      to: { path: "^(server|web)/" },
    },
    {
      name: "server-never-imports-web",
      comment:
        "The server and the web sit beside each other: a React change must not break the server's build.",
      severity: "error",
      // Test files may check that both sides agree (server/features/kyc/kyc-admin.api.test.ts reads the web's
      // onboarding steps): they are not part of the server's build.
      from: { path: "^server/", pathNot: TESTS },
      to: { path: "^web/" },
    },
    {
      name: "web-never-imports-server",
      comment: "The web reaches the server over HTTP only; what both need lives in contract/.",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^server/" },
    },
    {
      name: "web-shared-code-stays-below-features",
      comment: "web/components and web/lib sit below the features and the app shell: they never import them.",
      severity: "error",
      from: { path: "^web/(components|lib)/" },
      to: { path: "^web/(features|app)/" },
    },
    {
      name: "features-never-import-the-app",
      comment: "web/app composes the features; a feature never imports it back.",
      severity: "error",
      from: { path: "^web/features/" },
      to: { path: "^web/app/" },
    },
    {
      name: "feature-imports-another-only-through-api",
      comment:
        "A web feature imports another feature only through its api/ folder (fetch + queryOptions + hook), or " +
        "admin/api/ for its back office; what two features need beyond that moves to web/components or web/lib.",
      severity: "error",
      from: {
        path: "^web/features/([^/]+)/",
        pathNot: [
          "^web/features/back-office/admin-page\\.tsx$",
          "^web/features/auth/settings/settings-page\\.tsx$",
        ],
      },
      to: {
        path: "^web/features/[^/]+/",
        pathNot: ["^web/features/$1/", "^web/features/[^/]+/(admin/)?api/"],
      },
    },
    {
      name: "admin-page-composes-back-office-tabs",
      comment:
        "The back office's page composes each area's back-office tab (web/features/<area>/admin/*-tab.tsx) and " +
        "otherwise imports other features only through their api/ folders.",
      severity: "error",
      from: { path: "^web/features/back-office/admin-page\\.tsx$" },
      to: {
        path: "^web/features/[^/]+/",
        pathNot: [
          "^web/features/back-office/",
          "^web/features/[^/]+/(admin/)?api/",
          "^web/features/[^/]+/admin/[^/]+-tab\\.tsx$",
          // The user details' balance section: credits owns it, the back office hands it to the Users tab.
          "^web/features/credits/admin/balance-editor\\.tsx$",
        ],
      },
    },
    {
      name: "settings-page-composes-area-cards",
      comment:
        "The Settings page composes each area's own settings card (web/features/<area>/settings/*-card.tsx: " +
        "the area that serves a setting shows it) and otherwise imports other features only through their api/ folders.",
      severity: "error",
      from: { path: "^web/features/auth/settings/settings-page\\.tsx$" },
      to: {
        path: "^web/features/[^/]+/",
        pathNot: [
          "^web/features/auth/",
          "^web/features/[^/]+/(admin/)?api/",
          "^web/features/[^/]+/settings/[^/]+-card\\.tsx$",
        ],
      },
    },
    {
      name: "app-imports-pages-and-api",
      comment:
        "web/app imports a feature's pages (*-page.tsx, anywhere in it) and its api/ folder, nothing else.",
      severity: "error",
      from: { path: "^web/app/" },
      to: { path: "^web/features/", pathNot: ["-page\\.tsx$", "^web/features/[^/]+/(admin/)?api/"] },
    },
    {
      name: "server-lib-stays-below-features",
      comment:
        "server/lib, server/db and server/config.ts are the ground floor, small and generic: they never import a " +
        "feature or the app.",
      severity: "error",
      from: { path: GROUND_FLOOR, pathNot: TESTS },
      to: { path: "^server/(features/|app\\.ts$)" },
    },
    {
      name: "server-ground-floor-never-reaches-features",
      comment:
        "Nor through another module: nothing server/lib, server/db or server/config.ts imports, however " +
        "indirectly, is a feature or the app. What a feature must give the ground floor is passed in where " +
        "server/app.ts composes the app (decision 021).",
      severity: "error",
      from: { path: GROUND_FLOOR, pathNot: TESTS },
      to: { path: "^server/(features/|app\\.ts$)", reachable: true },
    },
    ...Object.keys(SERVER_AREA_DEPS)
      .concat(["content", "dev-mailbox", "health", "objects", "recipients", "approvals", "audit"])
      .map((area) => ({
        name: `server-area-deps-${area}`,
        comment: `server/features/${area} imports another area only along SERVER_AREA_DEPS in .dependency-cruiser.cjs.`,
        severity: "error",
        from: { path: `^server/features/${area}/`, pathNot: TESTS },
        to: {
          path: "^server/features/",
          pathNot: [`^server/features/(${[area, ...(SERVER_AREA_DEPS[area] ?? [])].join("|")})/`],
        },
      })),
    {
      name: "server-area-is-declared",
      comment: "Every server area appears in .dependency-cruiser.cjs, so its dependencies are checked.",
      severity: "error",
      from: {
        path: "^server/features/",
        pathNot: [
          TESTS,
          "^server/features/(accounts|admin|approvals|audit|auth|chat|closure|compliance|content|dev-mailbox|events|health|kyc|monitoring|notifications|objects|credits|recipients|savings|schedules|security|settlement|staff|statements|tag-payments|transfers)/",
        ],
      },
      to: {},
    },
    ...Object.keys(WEB_AREA_DEPS).map((area) => ({
      name: `web-area-deps-${area}`,
      comment: `web/features/${area} imports another area only along WEB_AREA_DEPS in .dependency-cruiser.cjs.`,
      severity: "error",
      from: { path: `^web/features/${area}/`, pathNot: TESTS },
      // What the other rules let an area import of another (its api/ and admin/ folders); the rest is already refused.
      to: {
        path: "^web/features/[^/]+/(api|admin)/",
        pathNot: [`^web/features/(${[area, ...WEB_AREA_DEPS[area]].join("|")})/`],
      },
    })),
    {
      name: "web-area-is-declared",
      comment: "Every web area appears in WEB_AREA_DEPS, so its dependencies are checked.",
      severity: "error",
      from: {
        path: "^web/features/",
        pathNot: [TESTS, `^web/features/(${Object.keys(WEB_AREA_DEPS).join("|")})/`],
      },
      to: {},
    },
    {
      name: "no-circular",
      comment:
        "Import cycles make load order matter and hide a layer that should exist. A cycle closed only by " +
        "type imports (erased at build) does neither.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    includeOnly: "^(contract|server|web)/",
    doNotFollow: { path: "node_modules" },
    // Type-only imports count: a type from the server in the web ties the two together all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};

// The area tables, for the generated area map in docs/architecture.md (scripts/docs-generate.ts). Not enumerable:
// dependency-cruiser accepts no key of its own beside its options.
Object.defineProperty(module.exports, "areaDeps", {
  value: { server: SERVER_AREA_DEPS, web: WEB_AREA_DEPS },
  enumerable: false,
});
