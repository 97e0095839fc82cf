import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userIdParams } from "@/contract/admin";
import { pageQuery } from "@/contract/pages";
import { addStaffInput, staffMember, staffMemberPage, staffRolesInput } from "@/contract/staff";
import { requireFreshStepUp } from "@/server/features/auth/step-up";
import { findStaff, getStaffMember } from "@/server/features/staff/find-staff";
import { grantStaffRoles, grantStaffRolesById } from "@/server/features/staff/grant-staff-roles";
import { revokeStaffRoles } from "@/server/features/staff/revoke-staff-roles";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/**
 * /api/admin/staff*: the owner's Staff tab (owner only, by ADMIN_ROUTE_ROLES). Granting and revoking are security
 * changes: an owner with a second factor proves it again first (403 stepUpRequired), like a balance edit.
 */
export async function staffRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { config } = app.deps;
  app.addHook("onRequest", requireAdmin);

  app.get("/staff", { schema: { querystring: pageQuery, response: { 200: staffMemberPage } } }, (request) =>
    findStaff(db, config, request.query),
  );

  app.post(
    "/staff",
    { schema: { body: addStaffInput, response: { 200: staffMember } }, preHandler: requireFreshStepUp },
    async (request) => {
      const { email, roles } = request.body;
      const granted = await grantStaffRoles(db, email, roles, signedInUser(request).id);
      return getStaffMember(db, config, granted.id);
    },
  );

  app.post(
    "/staff/:userId/grant",
    {
      schema: { params: userIdParams, body: staffRolesInput, response: { 200: staffMember } },
      preHandler: requireFreshStepUp,
    },
    async (request) => {
      const { userId } = request.params;
      await grantStaffRolesById(db, userId, request.body.roles, signedInUser(request).id);
      return getStaffMember(db, config, userId);
    },
  );

  app.post(
    "/staff/:userId/revoke",
    {
      schema: { params: userIdParams, body: staffRolesInput, response: { 200: staffMember } },
      preHandler: requireFreshStepUp,
    },
    async (request) => {
      const { userId } = request.params;
      await revokeStaffRoles(db, config, userId, request.body.roles, signedInUser(request).id);
      return getStaffMember(db, config, userId);
    },
  );
}
