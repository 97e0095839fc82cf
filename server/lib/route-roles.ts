import { ADMIN_ROUTE_ROLES } from "@/contract/admin-route-roles";
import { holdsAnyRole, type StaffRole } from "@/contract/staff";

// The table itself lives in contract/ so the admin web hides exactly what the server refuses; it is named
// here too because the server's checks and tests read it from this file.
export { ADMIN_ROUTE_ROLES, DOCUMENT_ROLES } from "@/contract/admin-route-roles";

const TABLE: Readonly<Record<string, readonly StaffRole[]>> = ADMIN_ROUTE_ROLES;

function routeKey(method: string, url: string): string {
  // HEAD is answered by the GET route; a prefixed "/" route's twin with a trailing slash is the same route.
  return `${method === "HEAD" ? "GET" : method} ${url.replace(/(.)\/$/, "$1")}`;
}

/** The roles for a matched admin route; undefined when the table does not list it. */
export function rolesForAdminRoute(method: string, url: string): readonly StaffRole[] | undefined {
  return TABLE[routeKey(method, url)];
}

export function mayCallAdminRoute(held: readonly StaffRole[], method: string, url: string): boolean {
  const allowed = rolesForAdminRoute(method, url);
  return allowed !== undefined && holdsAnyRole(held, allowed);
}

/** Startup check for every registered route: an admin route must be in the table. */
export function assertAdminRouteListed(methods: string | string[], url: string): void {
  if (!url.startsWith("/api/admin")) return;
  for (const method of Array.isArray(methods) ? methods : [methods]) {
    if (method === "HEAD" || method === "OPTIONS") continue;
    if (!rolesForAdminRoute(method, url)) {
      throw new Error(`${method} ${url} is an admin route missing from ADMIN_ROUTE_ROLES`);
    }
  }
}
