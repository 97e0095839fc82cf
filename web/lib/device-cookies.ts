import { createContext, useContext } from "react";

/**
 * The request's Cookie header while the server draws the app (web/app/server-render.tsx); undefined in the
 * browser, which reads document.cookie. A choice remembered on this device lives in a cookie, not in
 * localStorage, so the server draws the page as the browser will and hydration finds the same markup.
 */
export const DeviceCookies = createContext<string | undefined>(undefined);

/** Whether a Cookie header (or document.cookie) holds the cookie `name`. */
export function hasCookie(cookies: string, name: string): boolean {
  return cookies.split(";").some((part) => part.trim().startsWith(`${name}=`));
}

/** Whether this device holds the cookie `name`, on the server and in the browser alike. */
export function useHasDeviceCookie(name: string): boolean {
  const requestCookies = useContext(DeviceCookies);
  return hasCookie(requestCookies ?? (typeof document === "undefined" ? "" : document.cookie), name);
}

/** Remembers a choice on this device for a year (readable by the server's first render, never a secret). */
export function setDeviceCookie(name: string): void {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: a plain flag cookie; the Cookie Store API is not in every browser.
  document.cookie = `${name}=1; Max-Age=31536000; Path=/; SameSite=Lax${secure}`;
}
