import type { RefinementCtx } from "zod";
import type { ErrorReason } from "@/contract/error-reasons";

/**
 * Names (a person's, a company's, a payee's) must read as what they are: sanctions screening compares them with
 * listed names, and a word mixing alphabets ("\u039d\u043e\u0435l": Greek N, Cyrillic o and e, Latin l) or
 * hiding invisible characters ("He\u200bath") is written to pass for one name on screen and another to a matcher. No runtime
 * zod here: the sign-up form loads this rule without the auth contract's schemas.
 */
export const NAME_MESSAGES = {
  mixedScripts: "Please use letters from one alphabet in each name",
  invisibleCharacters: "Please remove invisible or formatting characters from the name",
} as const;

// Characters that print nothing: format characters (zero-width space and joiners, soft hyphen, word joiner, byte
// order mark, bidi controls) and the other default-ignorables (Hangul fillers, variation selectors).
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const JOINERS = /[\u200c\u200d]/u;

// The scripts a letter is told apart by; a letter of none of them counts as "other". Common and inherited
// letters (modifier apostrophes, mathematical letters) belong to no script and never make a mix.
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Georgian",
  "Cherokee",
  "Hebrew",
  "Arabic",
  "Syriac",
  "Thaana",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Tibetan",
  "Myanmar",
  "Khmer",
  "Ethiopic",
  "Mongolian",
  "Hangul",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
].map((name) => ({ name, pattern: new RegExp(`^\\p{Script=${name}}$`, "u") }));
const COMMON = /^[\p{Script=Common}\p{Script=Inherited}]$/u;
/** Scripts whose look-alikes of Latin letters make a mix deceptive: a joiner between their letters is refused. */
const LATIN_LOOKING = new Set(["Latin", "Greek", "Cyrillic", "Armenian", "Cherokee"]);
/** Writing systems that mix scripts within a word by design (TR39's highly restrictive level). */
const ONE_WRITING_SYSTEM = [
  new Set(["Han", "Hiragana", "Katakana"]),
  new Set(["Han", "Hangul"]),
  new Set(["Han", "Bopomofo"]),
];

function scriptOf(letter: string): string | null {
  if (COMMON.test(letter)) return null;
  return SCRIPTS.find((s) => s.pattern.test(letter))?.name ?? "other";
}

function isOneWritingSystem(scripts: Set<string>): boolean {
  if (scripts.size <= 1) return true;
  return ONE_WRITING_SYSTEM.some((system) => [...scripts].every((s) => system.has(s)));
}

/**
 * A joiner (ZWJ, ZWNJ) between two letters of one script that is not Latin-looking is spelling (Persian and
 * Indic names use it); anywhere else it only hides a break.
 */
function isSpellingJoiner(chars: string[], at: number): boolean {
  const before = scriptOf(chars[at - 1] ?? "");
  const after = scriptOf(chars[at + 1] ?? "");
  return before !== null && before === after && /\p{L}/u.test(chars[at - 1]!) && !LATIN_LOOKING.has(before);
}

/** Longer than any name field allows (200 at most), so its own max refuses it. */
const NAME_CHECK_MAX = 400;

/** Why a name as typed cannot be accepted (one of NAME_MESSAGES), or null when it can. */
export function nameCharactersProblem(name: string): string | null {
  const chars = [...name];
  const hidden = chars.some(
    (c, at) => INVISIBLE.test(c) && !(JOINERS.test(c) && isSpellingJoiner(chars, at)),
  );
  if (hidden) return NAME_MESSAGES.invisibleCharacters;
  for (const word of name.split(/[^\p{L}\p{M}\u200c\u200d]+/u)) {
    const scripts = new Set<string>();
    for (const letter of word.match(/\p{L}/gu) ?? []) {
      const script = scriptOf(letter);
      if (script) scripts.add(script);
    }
    if (!isOneWritingSystem(scripts)) return NAME_MESSAGES.mixedScripts;
  }
  return null;
}

/**
 * The zod rule every name field adds (`.superRefine(refineNameCharacters)`): its reason makes the refusal a 400
 * with the `nameCharactersInvalid` flag and the field (server/lib/error-handler.ts).
 */
export function refineNameCharacters(name: string | null | undefined, ctx: RefinementCtx): void {
  // A name past any field's length is refused by its max already: not worth a letter-by-letter look.
  const problem = name && name.length <= NAME_CHECK_MAX ? nameCharactersProblem(name) : null;
  if (problem)
    ctx.addIssue({
      code: "custom",
      message: problem,
      params: { reason: "name_characters_invalid" satisfies ErrorReason },
    });
}
