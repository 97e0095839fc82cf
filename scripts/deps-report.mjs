// npm run deps:report — the import graph in a few lines: which layer imports which, which area imports which,
// and every rule violation (.dependency-cruiser.cjs). Exits non-zero on a violation, like npm run lint:imports.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const depcruise = path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const graph = JSON.parse(
  execFileSync(
    process.execPath,
    [depcruise, "contract", "server", "web", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  ),
);

const isTest = (file) => /\.test\.tsx?$/.test(file);
const layerOf = (file) => file.split("/")[0];
/** An area is a feature folder on either side; anything else is named by its layer and top folder. */
function areaOf(file) {
  const feature = /^(server|web)\/features\/([^/]+)\//.exec(file);
  if (feature) return `${feature[1]}/${feature[2]}`;
  return null;
}

const layerEdges = new Map();
const areaEdges = new Map();
const crossLayer = [];
for (const module of graph.modules) {
  if (isTest(module.source)) continue;
  for (const dependency of module.dependencies) {
    const to = dependency.resolved;
    if (!/^(contract|server|web)\//.test(to)) continue;
    const [fromLayer, toLayer] = [layerOf(module.source), layerOf(to)];
    if (fromLayer !== toLayer) {
      const key = `${fromLayer} → ${toLayer}`;
      layerEdges.set(key, (layerEdges.get(key) ?? 0) + 1);
      if (toLayer !== "contract") crossLayer.push(`${module.source} → ${to}`);
    }
    const [fromArea, toArea] = [areaOf(module.source), areaOf(to)];
    if (fromArea && toArea && fromArea !== toArea) {
      const set = areaEdges.get(fromArea) ?? new Set();
      set.add(toArea.split("/")[1]);
      areaEdges.set(fromArea, set);
    }
  }
}

const lines = ["Layers (imports between them, test files left out):"];
for (const [edge, count] of [...layerEdges].sort()) lines.push(`  ${edge.padEnd(20)} ${count}`);
for (const edge of crossLayer) lines.push(`    ${edge}`);
for (const side of ["server", "web"]) {
  lines.push("", `Areas in ${side}/features that import another area:`);
  for (const [area, targets] of [...areaEdges].filter(([a]) => a.startsWith(`${side}/`)).sort()) {
    lines.push(`  ${area.slice(side.length + 1).padEnd(14)} → ${[...targets].sort().join(", ")}`);
  }
}
const { violations, totalCruised, totalDependenciesCruised } = graph.summary;
lines.push(
  "",
  `${totalCruised} modules, ${totalDependenciesCruised} imports, ${violations.length} rule violations`,
);
for (const v of violations) lines.push(`  ${v.rule.name}: ${v.from} → ${v.to}`);
console.log(lines.join("\n"));
process.exitCode = violations.length > 0 ? 1 : 0;
