import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { completeUploadResponse, createUploadInput, createUploadResponse } from "@/contract/kyc";
import { storedFile } from "@/contract/media";
import { createUpload } from "@/server/features/objects/create-upload";
import { openObject } from "@/server/features/objects/open-object";
import { checkUploadToken, receiveUpload } from "@/server/features/objects/receive-upload";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

const tokenParams = z.object({ token: z.string().min(1).max(300) });

/** Under /api/objects: POST /upload (an upload URL), PUT /upload/<token> (the bytes, to local storage). */
export async function uploadRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const perUser = (name: string, max: number) =>
    keyedLimit(app, { name, max, key: (request) => request.user?.id ?? null });

  app.post(
    "/upload",
    {
      schema: { body: createUploadInput, response: { 200: createUploadResponse } },
      preHandler: [requireUser, perUser("upload-url", 60)],
    },
    (request) => createUpload(deps, signedInUser(request).id),
  );

  await app.register(uploadReceiver);
}

/** Under /objects: GET /<path>, a stored file for its owner (or staff). */
export async function objectRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  // The app's onSend sets plain no-store on /objects/; this route-level hook runs after it.
  const privateNoStore = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header("cache-control", "private, no-store");
  };

  app.get(
    "/*",
    { schema: { response: { 200: storedFile } }, onSend: privateNoStore },
    async (request, reply) => {
      const path = `/objects/${(request.params as { "*": string })["*"]}`;
      const opened = await openObject(deps, request.user, path);
      return reply
        .header("content-type", opened.contentType)
        .header("content-length", opened.size)
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", "inline")
        .send(opened.stream);
    },
  );
}

/**
 * The one route that takes a raw body: any content type, never parsed or buffered here — the service streams
 * it to storage, sniffing and counting as it goes.
 */
async function uploadReceiver(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null));

  const checkToken = async (request: FastifyRequest) => {
    const user = signedInUser(request);
    checkUploadToken(deps.config.sessionSecret, (request.params as { token: string }).token, user.id);
  };

  app.put(
    "/upload/:token",
    {
      schema: { params: tokenParams, response: { 200: completeUploadResponse } },
      // Before the body is read: strangers and bad links never make the server buffer a file.
      onRequest: [requireUser, checkToken],
      preHandler: keyedLimit(app, {
        name: "upload-put",
        max: 60,
        key: (request) => request.user?.id ?? null,
      }),
    },
    (request) => {
      const length = request.headers["content-length"];
      return receiveUpload(
        deps,
        signedInUser(request).id,
        request.params.token,
        request.raw,
        length === undefined ? undefined : Number(length),
      );
    },
  );
}
