import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  notificationItem,
  notificationPage,
  notificationPageQuery,
  notificationPreference,
  notificationPreferences,
  unreadNotifications,
} from "@/contract/notifications";
import {
  countUnreadNotifications,
  findNotificationPreferences,
  findNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  updateNotificationPreference,
} from "@/server/features/notifications/notification-centre";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

const idParams = z.object({ id: z.string().regex(/^\d{1,18}$/) });

/** The notification centre (issue 32 §2): the signed-in customer's own notifications and their channel choices. */
export async function notificationRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);

  app.get(
    "",
    { schema: { querystring: notificationPageQuery, response: { 200: notificationPage } } },
    (request) => findNotifications(db, signedInUser(request).id, request.query),
  );

  app.get("/unread", { schema: { response: { 200: unreadNotifications } } }, (request) =>
    countUnreadNotifications(db, signedInUser(request).id),
  );

  app.post("/:id/read", { schema: { params: idParams, response: { 200: notificationItem } } }, (request) =>
    markNotificationRead(db, signedInUser(request).id, request.params.id),
  );

  app.post(
    "/read-all",
    { schema: { response: { 200: z.object({ marked: z.number().int() }) } } },
    (request) => markAllNotificationsRead(db, signedInUser(request).id),
  );

  app.get("/preferences", { schema: { response: { 200: notificationPreferences } } }, (request) =>
    findNotificationPreferences(db, signedInUser(request).id),
  );

  app.put(
    "/preferences",
    { schema: { body: notificationPreference, response: { 200: notificationPreferences } } },
    (request) => updateNotificationPreference(db, signedInUser(request).id, request.body),
  );
}
