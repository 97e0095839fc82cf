import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import type { RenderFirstPage } from "@/contract/first-page";
import { App } from "@/web/app/app";
import { createQueryClient, seedFirstReads } from "@/web/lib/query-client";

/**
 * The app's markup for a first load, rendered in the server process from the answers it is about to embed in
 * the page (server/lib/spa.ts): a phone paints the dashboard while its JavaScript is still downloading, and
 * the browser hydrates that markup (web/main.tsx) instead of drawing the page again. Waits for the page's
 * lazy chunks (prerender), so the markup is complete and carries no script. Rejects when `signal` aborts or
 * any part of the page fails to render.
 */
export const renderFirstPage: RenderFirstPage = async ({ path, answers, cookies, signal }) => {
  const queryClient = createQueryClient();
  seedFirstReads(queryClient, answers);
  // Any error (a component that threw, the signal's abort) means no markup: the browser then draws the
  // page itself from the same answers, instead of hydrating a page with holes in it.
  let failure: unknown;
  try {
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <App queryClient={queryClient} ssrPath={path} cookies={cookies} />
      </StrictMode>,
      {
        signal,
        onError: (error) => {
          failure ??= error;
        },
      },
    );
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
    if (failure !== undefined || signal?.aborted) throw failure ?? signal?.reason;
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    queryClient.clear();
  }
};
