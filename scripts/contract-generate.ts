/**
 * Writes what is generated from the endpoint contracts (decision 075): the staff role table the admin web reads
 * without loading a schema. `npm run contract:generate` after adding or changing an endpoint; a unit test fails
 * while the file in the repository differs from what this writes.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { isStaffAccess } from "@/contract/endpoint";
import { ENDPOINTS } from "@/contract/endpoints";

export const GENERATED_ROLES_FILE = "contract/admin-route-roles.generated.ts";

/** The generated role table's source. */
export function generatedRolesSource(): string {
  const rows = Object.entries(ENDPOINTS)
    .flatMap(([key, endpoint]) =>
      // Written as the formatter writes it (`["finance", "compliance"]`), so the check below compares like with like.
      isStaffAccess(endpoint.access)
        ? [`  ${JSON.stringify(key)}: [${endpoint.access.map((role) => JSON.stringify(role)).join(", ")}],`]
        : [],
    )
    .sort();
  return [
    "// Generated from the endpoint contracts by `npm run contract:generate` (scripts/contract-generate.ts): do not edit.",
    'import type { StaffRole } from "@/contract/staff";',
    "",
    "/** The staff roles each contract-declared /api/admin endpoint names (owners may call every one). */",
    "export const CONTRACT_ADMIN_ROUTE_ROLES = {",
    ...rows,
    "} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;",
    "",
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  writeFileSync(GENERATED_ROLES_FILE, generatedRolesSource());
  console.log(`wrote ${GENERATED_ROLES_FILE}`);
}
