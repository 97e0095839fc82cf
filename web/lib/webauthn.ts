import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";

// The library is loaded only when a passkey ceremony starts, so /auth and the landing page stay small.
const loadLibrary = () => import("@simplewebauthn/browser");

/** navigator.credentials.get for the server's options (sign-in, step-up, a signed transfer). */
export async function getPasskeyAssertion(
  options: PublicKeyCredentialRequestOptionsJSON,
): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await loadLibrary();
  return startAuthentication({ optionsJSON: options });
}

/** navigator.credentials.create for the server's registration options. */
export async function createPasskey(
  options: PublicKeyCredentialCreationOptionsJSON,
): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await loadLibrary();
  return startRegistration({ optionsJSON: options });
}

export function isPasskeySupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

const BROWSER_MESSAGES: Record<string, string> = {
  NotAllowedError: "The passkey request was cancelled or timed out. Please try again.",
  AbortError: "The passkey request was cancelled. Please try again.",
  InvalidStateError: "This device already has a passkey for your account.",
  SecurityError: "Passkeys don't work on this address. Open Pillar from its usual address and try again.",
  NotSupportedError: "This browser or device doesn't support passkeys.",
  ConstraintError: "This device can't create a passkey that works without a password.",
};

/** A friendly sentence for the browser's WebAuthn errors (cancel, timeout, unsupported); null for other errors. */
export function passkeyBrowserError(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  // @simplewebauthn wraps DOMExceptions in a WebAuthnError whose cause is the original one.
  const cause = (error as { cause?: unknown }).cause;
  const name = cause instanceof Error ? cause.name : error.name;
  if (BROWSER_MESSAGES[name]) return BROWSER_MESSAGES[name];
  if (/not supported/i.test(error.message)) return BROWSER_MESSAGES.NotSupportedError!;
  return null;
}

const BROWSER_NAMES: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\//, "Chrome"],
  [/Safari\//, "Safari"],
];
const SYSTEM_NAMES: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "Mac"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** A starting name for a new passkey, e.g. "Chrome on Linux". */
export function defaultPasskeyName(userAgent: string = navigator.userAgent): string {
  const browser = BROWSER_NAMES.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEM_NAMES.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "My passkey";
}
