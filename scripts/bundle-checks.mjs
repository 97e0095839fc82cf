// Pure checks over the build's manifest, shared by report-bundle.mjs and its unit test.

/** Manifest keys of the static-import closure: what the browser must download before the route renders. */
export function staticClosure(manifest, keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

// Manifest keys are relative to web/, chunk module ids to the repository root.
// Back-office code lives in web/features/back-office/ (and the old web/features/admin/), in an area's own admin/ folder, or in web/components/admin/.
const ADMIN_MODULE =
  /^(web\/)?(features\/(admin|back-office)\/|features\/[^/]+\/admin\/|components\/admin\/)/;

/**
 * Admin code a route would download eagerly: any back-office module (ADMIN_MODULE) that sits in the route's
 * static closure, either as a manifest entry or bundled inside a shared chunk (`chunkModules` maps each
 * output file to the module ids it contains, so code merged into a common chunk is caught too).
 */
export function findAdminCode(manifest, chunkModules, source) {
  const leaks = [];
  for (const key of staticClosure(manifest, ["index.html", source])) {
    const file = manifest[key].file;
    const modules = [key, ...(chunkModules[file] ?? [])].filter((m) => ADMIN_MODULE.test(m));
    for (const m of new Set(modules)) leaks.push(`${m} (in ${file})`);
  }
  return leaks;
}
