import type { FastifyInstance } from "fastify";
import { NOTIFICATION_ENDPOINTS } from "@/contract/notifications";
import {
  countUnreadNotifications,
  findNotificationPreferences,
  findNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  updateNotificationPreference,
} from "@/server/features/notifications/notification-centre";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * The notification centre (decision 034): the signed-in customer's own notifications and their channel choices.
 * Registered under /api, so the list is GET /api/notifications alone (under its own prefix it would be a "/"
 * route, answering with a trailing slash too).
 */
export async function notificationRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, NOTIFICATION_ENDPOINTS, {
    "GET /api/notifications": (request) => findNotifications(db, signedInUser(request).id, request.query),
    "GET /api/notifications/unread": (request) => countUnreadNotifications(db, signedInUser(request).id),
    "POST /api/notifications/:id/read": (request) =>
      markNotificationRead(db, signedInUser(request).id, request.params.id),
    "POST /api/notifications/read-all": (request) => markAllNotificationsRead(db, signedInUser(request).id),
    "GET /api/notifications/preferences": (request) =>
      findNotificationPreferences(db, signedInUser(request).id),
    "PUT /api/notifications/preferences": (request) =>
      updateNotificationPreference(db, signedInUser(request).id, request.body),
  });
}
