const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/OPR\/(\d+)|Opera\/(\d+)/, "Opera"],
  [/SamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/Firefox\/(\d+)|FxiOS\/(\d+)/, "Firefox"],
  [/Chrome\/(\d+)|CriOS\/(\d+)/, "Chrome"],
  [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** A readable "Chrome 120 on Windows" for the sessions list; order matters because Edge and Opera also say Chrome. */
export function describeBrowser(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  let browser: string | undefined;
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) {
      const version = match.slice(1).find(Boolean);
      browser = version ? `${name} ${version}` : name;
      break;
    }
  }
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) {
    const client = /^([\w.-]+)\/[\d.]+/.exec(userAgent)?.[1];
    browser = client ? client.slice(0, 40) : "Unknown browser";
  }
  return system ? `${browser} on ${system}` : browser;
}
