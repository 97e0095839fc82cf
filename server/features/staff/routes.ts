import type { FastifyInstance } from "fastify";
import { STAFF_ENDPOINTS } from "@/contract/staff";
import { findStaff, getStaffMember } from "@/server/features/staff/find-staff";
import { grantStaffRoles, grantStaffRolesById } from "@/server/features/staff/grant-staff-roles";
import { revokeStaffRoles } from "@/server/features/staff/revoke-staff-roles";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * /api/admin/staff*: the owner's Staff tab (owner only). Granting and revoking are security changes: an owner
 * with a second factor proves it again first (the contract's stepUp: 403 stepUpRequired), like a balance edit.
 */
export async function staffRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const { config } = app.deps;
  registerEndpoints(app, STAFF_ENDPOINTS, {
    "GET /api/admin/staff": (request) => findStaff(db, config, request.query),
    "POST /api/admin/staff": async (request) => {
      const { email, roles } = request.body;
      const granted = await grantStaffRoles(db, email, roles, signedInUser(request).id);
      return getStaffMember(db, config, granted.id);
    },
    "POST /api/admin/staff/:userId/grant": async (request) => {
      const { userId } = request.params;
      await grantStaffRolesById(db, userId, request.body.roles, signedInUser(request).id);
      return getStaffMember(db, config, userId);
    },
    "POST /api/admin/staff/:userId/revoke": async (request) => {
      const { userId } = request.params;
      await revokeStaffRoles(db, config, userId, request.body.roles, signedInUser(request).id);
      return getStaffMember(db, config, userId);
    },
  });
}
