import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as zxcvbnCommon from "@zxcvbn-ts/language-common";
import * as zxcvbnEn from "@zxcvbn-ts/language-en";

/** zxcvbn scores 0–4; 0 and 1 are guessable within minutes online, so they are refused. */
export const MIN_PASSWORD_SCORE = 2;

export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4;
  isTooCommon: boolean;
  warning: string | null;
  suggestions: string[];
}

let factory: ZxcvbnFactory | undefined;

// The dictionaries are large: build the matcher once, on first use, so importing this file stays cheap.
function getFactory(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    translations: zxcvbnEn.translations,
    graphs: zxcvbnCommon.adjacencyGraphs,
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
  });
  return factory;
}

/** "ada.l@example.com" also yields "ada.l", "ada" and "example": zxcvbn matches user inputs as whole words. */
function expandUserInputs(inputs: string[]): string[] {
  const words = new Set<string>();
  for (const input of inputs) {
    const value = input.trim().toLowerCase();
    if (!value) continue;
    words.add(value);
    const local = value.split("@")[0]!;
    words.add(local);
    for (const part of value.split(/[^a-z0-9]+/)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/** Pure strength estimate; `userInputs` (e-mail, names, tag) count as guessable words. */
export function checkPasswordStrength(password: string, userInputs: string[] = []): PasswordStrength {
  const result = getFactory().check(password, expandUserInputs(userInputs));
  const score = result.score as PasswordStrength["score"];
  return {
    score,
    isTooCommon: score < MIN_PASSWORD_SCORE,
    warning: result.feedback.warning ?? null,
    suggestions: result.feedback.suggestions ?? [],
  };
}
