import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  apiRequest,
  callEndpoint,
  failureOf,
  hrefOf,
  parseErrorBody,
  reasonOf,
  unhandledReason,
} from "@/web/lib/api";

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json", ...headers },
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("apiRequest conditional GETs", () => {
  it("sends the held ETag as If-None-Match and reuses the held body on 304", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json([{ id: 1 }], { etag: '"recent-a"' }))
      .mockResolvedValueOnce(new Response(null, { status: 304, headers: { etag: '"recent-a"' } }));
    vi.stubGlobal("fetch", fetchMock);
    const first = await apiRequest("GET", "/api/test/conditional-a");
    const second = await apiRequest("GET", "/api/test/conditional-a");
    expect(second).toBe(first);
    expect(fetchMock.mock.calls[0]![1].headers).not.toHaveProperty("If-None-Match");
    expect(fetchMock.mock.calls[1]![1].headers).toMatchObject({ "If-None-Match": '"recent-a"' });
  });

  it("replaces the held copy when the server sends a new one", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json({ v: 1 }, { etag: '"s-1"' }))
      .mockResolvedValueOnce(json({ v: 2 }, { etag: '"s-2"' }))
      .mockResolvedValueOnce(new Response(null, { status: 304 }));
    vi.stubGlobal("fetch", fetchMock);
    await apiRequest("GET", "/api/test/conditional-b");
    expect(await apiRequest("GET", "/api/test/conditional-b")).toEqual({ v: 2 });
    expect(await apiRequest("GET", "/api/test/conditional-b")).toEqual({ v: 2 });
    expect(fetchMock.mock.calls[2]![1].headers).toMatchObject({ "If-None-Match": '"s-2"' });
  });

  it("never sends If-None-Match on a mutation or for a response without an ETag", async () => {
    const fetchMock = vi.fn().mockImplementation(async () => json({ ok: true }));
    vi.stubGlobal("fetch", fetchMock);
    await apiRequest("GET", "/api/test/plain");
    await apiRequest("GET", "/api/test/plain");
    await apiRequest("POST", "/api/test/plain", { a: 1 });
    for (const [, init] of fetchMock.mock.calls) expect(init.headers).not.toHaveProperty("If-None-Match");
  });
});

describe("the one error parser", () => {
  it("reads the message, the code and the flags of an error body (decision 023)", async () => {
    const body = { message: "Daily withdrawal limit exceeded", code: "LIMIT", withdrawalLimitExceeded: true };
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status: 422 })));
    const error = await apiRequest("POST", "/api/test/failing", { a: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "LIMIT", message: body.message });
    expect((error as ApiError).hasFlag("withdrawalLimitExceeded")).toBe(true);
  });

  it("reads the reason, typed, for a switch; a failure without one has none", async () => {
    const body = { message: "Daily withdrawal limit exceeded", code: "UNPROCESSABLE", reason: "daily_limit" };
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status: 422 })));
    const error = await apiRequest("POST", "/api/test/failing", { a: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, reason: "daily_limit" });
    expect(reasonOf(error)).toBe("daily_limit");
    expect(reasonOf(new ApiError(409, "No reason", { code: "CONFLICT" }))).toBeUndefined();
    expect(reasonOf(new TypeError("Failed to fetch"))).toBeUndefined();
  });

  it("reads nothing from a body that is not an error object (storage XML, a JSON array)", () => {
    expect(parseErrorBody("<Error><Code>AccessDenied</Code></Error>")).toBeUndefined();
    expect(parseErrorBody("[1]")).toBeUndefined();
    expect(parseErrorBody('{"code":"X"}')).toEqual({ message: undefined, flags: { code: "X" } });
  });
});

/** A page whose HTML carries the server's first answers in the first-reads element, or none. */
function pageWithAnswers(text?: string, eventsFrom?: string) {
  const element =
    text === undefined
      ? null
      : {
          textContent: text,
          remove: vi.fn(),
          getAttribute: (name: string) => (name === "data-events-from" ? (eventsFrom ?? null) : null),
        };
  const page = { getElementById: vi.fn((id: string) => (id === "first-reads" ? element : null)) };
  vi.stubGlobal("document", page);
  return { element, page };
}

describe("early GETs", () => {
  // The page's answers are read once per page load: each test is a fresh load of the module.
  let api: typeof import("@/web/lib/api");
  beforeEach(async () => {
    vi.resetModules();
    pageWithAnswers();
    api = await import("@/web/lib/api");
  });

  it("reads the answers the server put in the page once, asks none of them early, and polls them with their ETag", async () => {
    const { element, page } = pageWithAnswers(
      JSON.stringify({
        "/api/test/in-page": { body: { name: "Ada" }, etag: '"in-page-1"' },
      }),
      "12",
    );
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json({ asked: true }))
      .mockResolvedValueOnce(new Response(null, { status: 304 }));
    vi.stubGlobal("fetch", fetchMock);
    expect(api.answersInPage()).toEqual({
      "/api/test/in-page": { body: { name: "Ada" }, etag: '"in-page-1"' },
    });
    expect(element?.remove).toHaveBeenCalled();
    // The notice number the answers were read after: handed to the first event stream, once.
    expect(api.takeEventsFromInPage()).toBe("12");
    expect(api.takeEventsFromInPage()).toBeUndefined();
    api.startEarlyGets(["/api/test/in-page", "/api/test/not-in-page"]);
    expect(page.getElementById).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/test/not-in-page");
    expect(await api.apiRequest("GET", "/api/test/not-in-page")).toEqual({ asked: true });
    // The query cache holds the embedded answer (seedFirstReads); the next read of it is conditional.
    expect(await api.apiRequest("GET", "/api/test/in-page")).toEqual({ name: "Ada" });
    expect(fetchMock.mock.calls[1]![1].headers).toMatchObject({ "If-None-Match": '"in-page-1"' });
  });

  it("asks as usual when the page's answers are not readable", async () => {
    pageWithAnswers("{not json");
    const fetchMock = vi.fn().mockResolvedValue(json({ asked: true }));
    vi.stubGlobal("fetch", fetchMock);
    api.startEarlyGets(["/api/test/unreadable"]);
    expect(await api.apiRequest("GET", "/api/test/unreadable")).toEqual({ asked: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
  it("hands each early answer to the first request for its URL, once", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json({ early: true }))
      .mockResolvedValueOnce(json({ early: false }));
    vi.stubGlobal("fetch", fetchMock);
    api.startEarlyGets(["/api/test/early-a"]);
    expect(await api.apiRequest("GET", "/api/test/early-a")).toEqual({ early: true });
    expect(await api.apiRequest("GET", "/api/test/early-a")).toEqual({ early: false });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("drops every early answer once one says the session is gone (a stale hint)", async () => {
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url === "/api/test/early-user"
          ? new Response(JSON.stringify({ message: "Unauthorized" }), { status: 401 })
          : json({ from: "before sign-in" }),
      ),
    );
    vi.stubGlobal("fetch", fetchMock);
    api.startEarlyGets(["/api/test/early-user", "/api/test/early-b"]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fetchMock.mockImplementation(() => Promise.resolve(json({ from: "after sign-in" })));
    expect(await api.apiRequest("GET", "/api/test/early-b")).toEqual({ from: "after sign-in" });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});

describe("ApiError's own fields", () => {
  it("keeps the HTTP status when the body carries a status detail, and still exposes the other flags", () => {
    const error = new ApiError(409, "This request was already decided.", {
      code: "CONFLICT",
      reason: "approval_decided",
      approvalDecided: true,
      status: "approved",
    });
    expect(error.status).toBe(409);
    expect(error.message).toBe("This request was already decided.");
    expect(error.reason).toBe("approval_decided");
    expect(error.flags.status).toBe("approved");
    expect((error as unknown as { approvalDecided: boolean }).approvalDecided).toBe(true);
  });
});

describe("calls by contract key", () => {
  it("builds the URL from the key: parameters encoded, empty query values left out", () => {
    expect(hrefOf("GET /api/admin/compliance/cases/:id/report.pdf", { params: { id: "a b/c" } })).toBe(
      "/api/admin/compliance/cases/a%20b%2Fc/report.pdf",
    );
    expect(
      hrefOf("GET /api/admin/users", { query: { q: "ada", cursor: undefined, role: "" } } as never),
    ).toBe("/api/admin/users?q=ada");
    expect(hrefOf("GET /api/savings", {})).toBe("/api/savings");
  });

  it("sends the key's method, the filled URL and the body as JSON", async () => {
    const fetchMock = vi.fn().mockResolvedValue(json({ message: "Moved" }));
    vi.stubGlobal("fetch", fetchMock);
    await callEndpoint(
      "POST /api/savings/moves",
      { body: { direction: "to_savings", amount: "5.00" } },
      { headers: { "Idempotency-Key": "k-1" } },
    );
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/savings/moves");
    expect(init.method).toBe("POST");
    expect(JSON.parse(init.body)).toEqual({ direction: "to_savings", amount: "5.00" });
    expect(init.headers).toMatchObject({ "Content-Type": "application/json", "Idempotency-Key": "k-1" });
  });

  it("types a failure by the endpoint's reasons, and an unknown reason gets the general answer", () => {
    const refused = new ApiError(404, "No goal", { code: "NOT_FOUND", reason: "savings_goal_not_found" });
    expect(failureOf("POST /api/savings/moves", refused)).toBe("savings_goal_not_found");
    expect(failureOf("POST /api/savings/moves", new TypeError("Failed to fetch"))).toBeUndefined();
    expect(unhandledReason("newer_server_reason" as never, "general")).toBe("general");
  });
});
