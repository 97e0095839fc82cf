import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { messageResponse } from "@/contract/auth";
import {
  addressCheck,
  addressCheckQuery,
  createRecipientInput,
  RECIPIENT_MESSAGES,
  recipientIdParams,
  recipientList,
  recipientResponse,
  renameRecipientInput,
} from "@/contract/recipients";
import { checkAddress } from "@/server/features/recipients/check-address";
import {
  createRecipient,
  deleteRecipient,
  findRecipients,
  renameRecipient,
} from "@/server/features/recipients/manage-recipients";
import { AppError } from "@/server/lib/errors";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Recipients are for sending money, which staff never do from the customer side. */
async function requireCustomer(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (request.user?.isAdmin) {
    throw new AppError("customers_only", RECIPIENT_MESSAGES.adminCannotSave);
  }
}

/** /api/recipients: a customer's saved recipients (address book) for USDC transfers. */
export async function recipientRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireCustomer);
  const changes = keyedLimit(app, {
    name: "recipient-change",
    max: 30,
    key: (request) => request.user?.id ?? null,
  });

  app.get("/recipients", { schema: { response: { 200: recipientList } } }, (request) =>
    findRecipients(db, signedInUser(request).id),
  );

  app.get(
    "/recipients/address-check",
    { schema: { querystring: addressCheckQuery, response: { 200: addressCheck } } },
    (request) => checkAddress(db, signedInUser(request).id, request.query.address),
  );

  app.post(
    "/recipients",
    { schema: { body: createRecipientInput, response: { 201: recipientResponse } }, preHandler: changes },
    async (request, reply) => {
      const recipient = await createRecipient(
        db,
        signedInUser(request).id,
        request.body,
        app.deps.config.sanctionsNameThreshold,
      );
      return reply.status(201).send({ message: RECIPIENT_MESSAGES.saved, recipient });
    },
  );

  app.patch(
    "/recipients/:id",
    {
      schema: { params: recipientIdParams, body: renameRecipientInput, response: { 200: recipientResponse } },
      preHandler: changes,
    },
    async (request) => ({
      message: RECIPIENT_MESSAGES.renamed,
      recipient: await renameRecipient(db, signedInUser(request).id, request.params.id, request.body.name),
    }),
  );

  app.delete(
    "/recipients/:id",
    { schema: { params: recipientIdParams, response: { 200: messageResponse } }, preHandler: changes },
    async (request) => {
      await deleteRecipient(db, signedInUser(request).id, request.params.id);
      return { message: RECIPIENT_MESSAGES.removed };
    },
  );
}
