import type { Prng } from "./prng";

/**
 * How a customer writes a listed name another way (decision 052): transliteration families, accents, typos,
 * initials, legal forms. Written from the naming conventions, not from the matcher. Each rewrite returns the new
 * name and what it did, or null when it does not apply to the name.
 */
export interface Rewrite {
  name: string;
  op: string;
}
type Rule = (name: string) => Rewrite | null;

/** Keeps the case pattern of the word it replaces: `MUHAMMAD` → `MOHAMMED`, `Muhammad` → `Mohammed`. */
function likeCase(model: string, word: string): string {
  if (model === model.toUpperCase()) return word.toUpperCase();
  if (model[0] === model[0]!.toUpperCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

/** A rule replacing whole words that belong to one group of spellings by another member of the group. */
function groupRules(groups: readonly (readonly string[])[], family: string, rng: Prng): Rule[] {
  return groups.map((group) => (name: string) => {
    const re = new RegExp(`(?<![\\p{L}'])(${group.join("|")})(?![\\p{L}'])`, "iu");
    const m = re.exec(name);
    if (!m) return null;
    const others = group.filter((g) => g !== m[1]!.toLowerCase());
    const to = likeCase(m[1]!, rng.pick(others));
    return {
      name: name.slice(0, m.index) + to + name.slice(m.index + m[1]!.length),
      op: `${family}:${m[1]!.toLowerCase()}>${to.toLowerCase()}`,
    };
  });
}

/** A rule applying a regular expression's replacement to the first token it changes. */
function tokenRule(op: string, re: RegExp, replace: string | ((...m: string[]) => string)): Rule {
  return (name: string) => {
    const tokens = name.split(" ");
    for (let i = 0; i < tokens.length; i++) {
      const lower = tokens[i]!.toLowerCase();
      const changed = lower.replace(re, replace as string);
      if (changed !== lower && changed.length > 1) {
        tokens[i] = likeCase(tokens[i]!, changed);
        return { name: tokens.join(" "), op };
      }
    }
    return null;
  };
}

/** Applies one rule (or two, 40% of the time) picked among those that change the name. */
function applySome(name: string, rules: Rule[], rng: Prng): Rewrite | null {
  const ops: string[] = [];
  let current = name;
  const rounds = rng.chance(0.4) ? 2 : 1;
  for (let r = 0; r < rounds; r++) {
    const applicable = rng
      .shuffle(rules)
      .map((rule) => rule(current))
      .filter((x): x is Rewrite => x !== null && x.name !== current);
    if (applicable.length === 0) break;
    const chosen = applicable[0]!;
    current = chosen.name;
    ops.push(chosen.op);
  }
  return ops.length && current.toLowerCase() !== name.toLowerCase()
    ? { name: current, op: ops.join(",") }
    : null;
}

// ——— Arabic ———————————————————————————————————————————————————————————————————————————————————————————
const ARABIC_GROUPS = [
  ["muhammad", "mohammed", "mohamed", "mohammad", "muhammed", "mohamad"],
  ["ahmad", "ahmed"],
  ["mahmoud", "mahmud", "mahmood"],
  ["yusuf", "yousef", "youssef", "yousif", "yusif", "yousuf"],
  ["hussein", "husayn", "hussain", "husain", "husein"],
  ["hassan", "hasan"],
  ["hasan", "hassan"],
  ["omar", "umar"],
  ["osama", "usama", "usamah"],
  ["khalid", "khaled"],
  ["said", "saeed", "saied"],
  ["abdullah", "abdallah", "abdulla"],
  ["ibrahim", "ebrahim", "ibraheem"],
  ["mustafa", "mostafa", "moustafa", "mustapha"],
  ["abu", "abou"],
  ["bin", "ben"],
  ["faisal", "faysal", "faycal"],
  ["qasim", "qassem", "kassem", "qasem", "kasim"],
  ["walid", "waleed"],
  ["rashid", "rasheed", "rachid"],
  ["hamid", "hameed"],
  ["majid", "majeed"],
  ["karim", "kareem"],
  ["nasser", "nasir", "naser", "nassir"],
  ["sulayman", "suleiman", "sulaiman", "soliman", "suleyman"],
  ["yahya", "yehia", "yahia"],
  ["ismail", "ismael", "esmail"],
  ["zayd", "zaid", "zeid"],
  ["husayn", "hussein", "hussain"],
  ["uthman", "othman", "osman"],
  ["jafar", "jaafar", "jaffar"],
  ["salih", "saleh"],
  ["khalil", "khaleel"],
  ["hamza", "hamzah"],
  ["tariq", "tarek", "tarik"],
  ["amin", "ameen"],
  ["nur", "noor", "nour"],
  ["abd", "abdul", "abdel"],
] as const;

/** `Abd al-Rahman`, `Abdul Rahman`, `Abdel Rahman`, `Abd-al-Rahman`, `Abdelrahman`: the same name. */
const abdRule =
  (rng: Prng): Rule =>
  (name) => {
    const re =
      /(?<![\p{L}'])(?:abd[\s-]*(?:al|el|ul)[\s-]*|abdul[\s-]+|abdel[\s-]*|abd[\s-]+)(?!lah\b|la\b|allah\b)(\p{L}{3,})/iu;
    const m = re.exec(name);
    if (!m) return null;
    const root = m[1]!;
    const cap = root[0]!.toUpperCase() + root.slice(1).toLowerCase();
    const forms = [
      `Abdul ${cap}`,
      `Abdel ${cap}`,
      `Abd al-${cap}`,
      `Abdul-${cap}`,
      `Abd-al-${cap}`,
      `Abdel${cap.toLowerCase()}`,
      `Abd el ${cap}`,
    ];
    const others = forms.filter((f) => f.toLowerCase() !== m[0]!.toLowerCase());
    const to = rng.pick(others);
    return { name: name.slice(0, m.index) + to + name.slice(m.index + m[0]!.length), op: "arabic:abd-al" };
  };

/** The article: `Al-Tikriti`, `El-Tikriti`, `Al Tikriti`, `Altikriti`. */
const articleRule =
  (rng: Prng): Rule =>
  (name) => {
    const m = /(?<![\p{L}'])(al|el)(-| )(\p{L}{3,})/iu.exec(name);
    if (!m) return null;
    const word = m[3]!;
    const cap = word[0]!.toUpperCase() + word.slice(1).toLowerCase();
    const forms = [`Al-${cap}`, `El-${cap}`, `Al ${cap}`, `El ${cap}`, `Al${cap.toLowerCase()}`];
    const to = rng.pick(forms.filter((f) => f.toLowerCase() !== m[0]!.toLowerCase()));
    return { name: name.slice(0, m.index) + to + name.slice(m.index + m[0]!.length), op: "arabic:al-el" };
  };

export function arabicRewrite(name: string, rng: Prng): Rewrite | null {
  return applySome(
    name,
    [
      ...groupRules(ARABIC_GROUPS, "arabic", rng),
      abdRule(rng),
      articleRule(rng),
      tokenRule("arabic:ou>u", /ou/, "u"),
      tokenRule("arabic:u>ou", /^([^aeiou]*[aeio]?[^aeiou]+)u(?=[^aeiou])/, "$1ou"),
      tokenRule("arabic:i>ee", /i([dmrlbf])$/, "ee$1"),
      tokenRule("arabic:ee>i", /ee/, "i"),
    ],
    rng,
  );
}

// ——— Persian ——————————————————————————————————————————————————————————————————————————————————————————
const PERSIAN_GROUPS = [
  ["hossein", "hosein", "husayn", "hosseyn", "hussein"],
  ["mohammad", "mohamad", "muhammad", "mohammed"],
  ["mahmoud", "mahmud"],
  ["mehdi", "mahdi"],
  ["gholam", "qolam", "golam", "gholam-"],
  ["ghasem", "qasem", "qassem", "ghassem"],
  ["javad", "jawad"],
  ["seyed", "sayyed", "seyyed", "sayed", "seyyid"],
  ["ebrahim", "ibrahim"],
  ["esmail", "ismail", "esmaeil", "esmaeel"],
  ["jafar", "jafaar", "djafar"],
  ["morteza", "mortaza", "murtaza"],
  ["mostafa", "mustafa"],
  ["asghar", "asgar"],
  ["reza", "riza"],
  ["hassan", "hasan"],
  ["saeed", "said", "saied"],
  ["vahid", "wahid"],
  ["rouhollah", "ruhollah", "roohollah"],
  ["abolfazl", "abulfazl", "abolfazel"],
  ["masoud", "masud", "massoud"],
] as const;

export function persianRewrite(name: string, rng: Prng): Rewrite | null {
  return applySome(
    name,
    [
      ...groupRules(PERSIAN_GROUPS, "persian", rng),
      tokenRule("persian:i>y", /([bcdfgjklmnprstvz])i$/, "$1y"),
      tokenRule("persian:ei>ey", /ei(?=[a-z])/, "ey"),
      tokenRule("persian:aie>aei", /aie$/, "aei"),
      tokenRule("persian:aei>aie", /aei$/, "aie"),
      tokenRule("persian:ee>ei", /aee$/, "aei"),
      tokenRule("persian:gh>q", /^gh/, "q"),
      tokenRule("persian:q>gh", /^q/, "gh"),
      tokenRule("persian:ou>u", /ou/, "u"),
      tokenRule("persian:ou>oo", /ou/, "oo"),
      tokenRule("persian:zadeh>zade", /zadeh$/, "zade"),
      tokenRule("persian:zade>zadeh", /zade$/, "zadeh"),
    ],
    rng,
  );
}

// ——— Russian (Latin romanisations) ———————————————————————————————————————————————————————————————————
const RUSSIAN_GROUPS = [
  ["aleksandr", "alexander", "aleksander", "alexandr"],
  ["aleksey", "alexei", "alexey", "aleksei"],
  ["sergey", "sergei"],
  ["dmitriy", "dmitry", "dmitrii", "dimitri"],
  ["yuriy", "yuri", "yury", "iurii"],
  ["yevgeniy", "evgeny", "evgenii", "yevgeny"],
  ["vyacheslav", "viacheslav"],
  ["mikhail", "mihail"],
  ["nikolay", "nikolai"],
  ["andrey", "andrei"],
  ["vitaliy", "vitaly", "vitalii"],
  ["anatoliy", "anatoly", "anatolii"],
  ["valeriy", "valery", "valerii"],
  ["gennadiy", "gennady", "gennadii"],
  ["vasiliy", "vasily", "vasilii"],
  ["grigoriy", "grigory", "grigorii"],
  ["pyotr", "petr"],
  ["fyodor", "fedor"],
  ["ilya", "ilia"],
  ["yakov", "iakov"],
  ["yelena", "elena"],
  ["tatyana", "tatiana"],
  ["natalya", "natalia"],
  ["yuliya", "yulia", "iuliia"],
  ["maksim", "maxim"],
  ["mariya", "maria"],
  ["anastasiya", "anastasia"],
  ["arkadiy", "arkady", "arkadii"],
  ["leonid", "leonide"],
  ["viktor", "victor"],
  ["konstantin", "constantin"],
] as const;

export function russianRewrite(name: string, rng: Prng): Rewrite | null {
  return applySome(
    name,
    [
      ...groupRules(RUSSIAN_GROUPS, "russian", rng),
      tokenRule("russian:iy>y", /iy$/, "y"),
      tokenRule("russian:iy>ii", /iy$/, "ii"),
      tokenRule("russian:skiy>sky", /skiy$/, "sky"),
      tokenRule("russian:ya>ia", /ya/, "ia"),
      tokenRule("russian:yu>iu", /yu/, "iu"),
      tokenRule("russian:kh>h", /kh/, "h"),
      tokenRule("russian:ov>off", /ov$/, "off"),
      tokenRule("russian:ev>eff", /ev$/, "eff"),
      tokenRule("russian:ye>e", /(?<=[a-z])ye/, "e"),
      tokenRule("russian:ks>x", /ks/, "x"),
      tokenRule("russian:ay>ai", /([aeo])y(?=[^aeiou]|$)/, "$1i"),
    ],
    rng,
  );
}

/** A Latin romanisation of a Russian name written back in Cyrillic, as a customer with a Russian passport may. */
const TO_CYRILLIC: [RegExp, string][] = [
  [/shch/g, "щ"],
  [/iy(?=\b)/g, "ий"],
  [/yy(?=\b)/g, "ый"],
  [/kh/g, "х"],
  [/zh/g, "ж"],
  [/ch/g, "ч"],
  [/sh/g, "ш"],
  [/ts/g, "ц"],
  [/yu/g, "ю"],
  [/ya/g, "я"],
  [/yo/g, "ё"],
  [/\bye/g, "е"],
  [/(?<=[aeiouяюеё])ye/g, "е"],
  [/ye/g, "ье"],
  [/(?<=[aeiouяюё])y/g, "й"],
  [/y/g, "ы"],
  [/x/g, "кс"],
  [/a/g, "а"],
  [/b/g, "б"],
  [/v/g, "в"],
  [/w/g, "в"],
  [/g/g, "г"],
  [/d/g, "д"],
  [/e/g, "е"],
  [/z/g, "з"],
  [/i/g, "и"],
  [/j/g, "й"],
  [/k/g, "к"],
  [/q/g, "к"],
  [/c/g, "к"],
  [/l/g, "л"],
  [/m/g, "м"],
  [/n/g, "н"],
  [/o/g, "о"],
  [/p/g, "п"],
  [/r/g, "р"],
  [/s/g, "с"],
  [/t/g, "т"],
  [/u/g, "у"],
  [/f/g, "ф"],
  [/h/g, "х"],
];

export function toCyrillic(name: string): Rewrite | null {
  if (!/^[A-Za-z' -]+$/.test(name)) return null;
  const words = name.split(" ").map((w) => {
    let c = w.toLowerCase().replace(/'/g, "ь");
    for (const [re, to] of TO_CYRILLIC) c = c.replace(re, to);
    return c[0]!.toUpperCase() + c.slice(1);
  });
  return { name: words.join(" "), op: "cyrillic" };
}

// ——— Chinese: pinyin to Wade–Giles ————————————————————————————————————————————————————————————————————
const INITIALS = [
  "zh",
  "ch",
  "sh",
  "b",
  "p",
  "m",
  "f",
  "d",
  "t",
  "n",
  "l",
  "g",
  "k",
  "h",
  "j",
  "q",
  "x",
  "r",
  "z",
  "c",
  "s",
  "y",
  "w",
  "",
];
const FINALS = new Set([
  "a",
  "o",
  "e",
  "ai",
  "ei",
  "ao",
  "ou",
  "an",
  "en",
  "ang",
  "eng",
  "ong",
  "er",
  "i",
  "ia",
  "ie",
  "iao",
  "iu",
  "ian",
  "in",
  "iang",
  "ing",
  "iong",
  "u",
  "ua",
  "uo",
  "uai",
  "ui",
  "uan",
  "un",
  "uang",
  "ue",
]);
const WG_INITIAL: Record<string, string> = {
  b: "p",
  d: "t",
  g: "k",
  j: "ch",
  q: "ch",
  x: "hs",
  zh: "ch",
  r: "j",
  z: "ts",
  c: "ts",
};

/** One pinyin syllable, or null when the text is not one. */
function syllable(s: string): { initial: string; final: string } | null {
  for (const initial of INITIALS) {
    if (!s.startsWith(initial)) continue;
    const final = s.slice(initial.length);
    if (FINALS.has(final) && !(initial === "" && /^[iu]/.test(final))) return { initial, final };
  }
  return null;
}

function wadeGiles(s: string): string {
  const syl = syllable(s)!;
  const { initial, final } = syl;
  if (s === "you") return "yu";
  if (s === "yan") return "yen";
  if (s === "yi") return "i";
  if (s === "ye") return "yeh";
  if (s === "yue") return "yueh";
  if (final === "i" && ["zh", "ch", "sh", "r"].includes(initial))
    return `${WG_INITIAL[initial] ?? initial}ih`;
  if (final === "i" && ["z", "c", "s"].includes(initial)) return initial === "s" ? "ssu" : "tzu";
  let f = final
    .replace(/^ong$/, "ung")
    .replace(/^iong$/, "iung")
    .replace(/^ian$/, "ien")
    .replace(/^ie$/, "ieh")
    .replace(/^ue$/, "ueh");
  if (final === "e" && ["g", "k", "h"].includes(initial)) f = "o";
  if (final === "u" && ["j", "q", "x"].includes(initial)) f = "u";
  return (WG_INITIAL[initial] ?? initial) + f;
}

/** A token read as one or two pinyin syllables (`fangwei` → fang + wei), or null. */
export function pinyinSyllables(token: string): string[] | null {
  const t = token.toLowerCase().replace(/-/g, "");
  if (!/^[a-z]+$/.test(t)) return null;
  if (syllable(t)) return [t];
  for (let i = t.length - 1; i >= 1; i--) {
    if (syllable(t.slice(0, i)) && syllable(t.slice(i))) return [t.slice(0, i), t.slice(i)];
  }
  return null;
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/**
 * A Chinese name (surname + given, all pinyin) written another way: Wade–Giles for pinyin, the given name joined,
 * hyphenated or split, surname first or last.
 */
export function chineseRewrite(surname: string, given: string[], rng: Prng): Rewrite | null {
  const sur = pinyinSyllables(surname);
  const giv = given.map(pinyinSyllables);
  if (sur?.length !== 1 || giv.some((g) => !g)) return null;
  const givenSyllables = giv.flatMap((g) => g!);
  if (givenSyllables.length === 0 || givenSyllables.length > 3) return null;
  const ops: string[] = [];
  let s = sur[0]!;
  let gs = givenSyllables;
  const wgSurname = wadeGiles(s);
  const wgGiven = gs.map(wadeGiles);
  const useWg = rng.chance(0.85);
  if (useWg && (wgSurname !== s || wgGiven.join("") !== gs.join(""))) {
    s = wgSurname;
    gs = wgGiven;
    ops.push("chinese:wade-giles");
  }
  let givenText: string;
  const joinStyle = gs.length > 1 ? rng.pick(["joined", "hyphen", "split"] as const) : "joined";
  if (joinStyle === "joined") givenText = cap(gs.join(""));
  else if (joinStyle === "hyphen") givenText = `${cap(gs[0]!)}-${gs.slice(1).join("-")}`;
  else givenText = gs.map(cap).join(" ");
  const originalJoin = given.length > 1 ? "split" : given[0]!.includes("-") ? "hyphen" : "joined";
  if (gs.length > 1 && joinStyle !== originalJoin) ops.push(`chinese:given-${joinStyle}`);
  const surnameFirst = rng.chance(0.5);
  if (surnameFirst) ops.push("chinese:surname-first");
  if (!ops.some((o) => o === "chinese:wade-giles" || o.startsWith("chinese:given"))) return null;
  const name = surnameFirst ? `${cap(s)} ${givenText}` : `${givenText} ${cap(s)}`;
  return { name, op: ops.join(",") };
}

// ——— Accents ——————————————————————————————————————————————————————————————————————————————————————————
const ACCENTED: Record<string, string> = {
  jose: "José",
  maria: "María",
  garcia: "García",
  ramon: "Ramón",
  jesus: "Jesús",
  martin: "Martín",
  julian: "Julián",
  andres: "Andrés",
  angel: "Ángel",
  raul: "Raúl",
  ruben: "Rubén",
  victor: "Víctor",
  hector: "Héctor",
  oscar: "Óscar",
  lucia: "Lucía",
  sofia: "Sofía",
  monica: "Mónica",
  ines: "Inés",
  ivan: "Iván",
  adrian: "Adrián",
  sebastian: "Sebastián",
  nicolas: "Nicolás",
  tomas: "Tomás",
  joaquin: "Joaquín",
  agustin: "Agustín",
  efrain: "Efraín",
  simon: "Simón",
  leon: "León",
  leonardo: "Leonardo",
  munoz: "Muñoz",
  nunez: "Núñez",
  ibanez: "Ibáñez",
  pena: "Peña",
  espana: "España",
  patino: "Patiño",
  castaneda: "Castañeda",
  zuniga: "Zúñiga",
  avila: "Ávila",
  alvaro: "Álvaro",
  cesar: "César",
  fabian: "Fabián",
  german: "Germán",
  ruiz: "Ruíz",
  beltran: "Beltrán",
  galvan: "Galván",
  roman: "Román",
  rene: "René",
  andre: "André",
  francois: "François",
  helene: "Hélène",
  joao: "João",
  goncalves: "Gonçalves",
  conceicao: "Conceição",
  nguyen: "Nguyễn",
  tran: "Trần",
  pham: "Phạm",
  hoang: "Hoàng",
  duc: "Đức",
  dang: "Đặng",
  ozturk: "Öztürk",
  yilmaz: "Yılmaz",
  sahin: "Şahin",
  celik: "Çelik",
  muller: "Müller",
  gunes: "Güneş",
  karadzic: "Karadžić",
  mladic: "Mladić",
  cristobal: "Cristóbal",
  benitez: "Benítez",
  saenz: "Sáenz",
  medrano: "Medrano",
};
/** Spanish surnames in -ez stress the syllable before: Rodríguez, González, Martínez, Pérez… */
function accentEz(token: string): string | null {
  // The stressed vowel is the last one before the ending; the u of -quez/-guez is silent.
  const m = /^(.*)([aeiou])([^aeiou]*[qg]u)ez$/i.exec(token) ?? /^(.*)([aeiou])([^aeiou]*)ez$/i.exec(token);
  if (!m || token.length < 5) return null;
  const acc: Record<string, string> = { a: "á", e: "é", i: "í", o: "ó", u: "ú" };
  return `${m[1]}${acc[m[2]!.toLowerCase()]}${m[3]}ez`;
}
/** Spanish words ending -on / -an / -in stressed on the last syllable: Calderón, Escandón, Rincón. */
function accentOn(token: string): string | null {
  const m = /^(.{3,})([oa])n$/i.exec(token);
  if (!m) return null;
  return `${m[1]}${m[2]!.toLowerCase() === "o" ? "ó" : "á"}n`;
}
/** Balkan names in -ic: Šahinpašić. */
function accentIc(token: string): string | null {
  return /^.{3,}ic$/i.test(token) ? `${token.slice(0, -1)}ć` : null;
}

/** Words of ACCENTED that are not Spanish: used only for names of other origins. */
const NOT_SPANISH = new Set([
  "rene",
  "andre",
  "francois",
  "helene",
  "joao",
  "goncalves",
  "conceicao",
  "nguyen",
  "tran",
  "pham",
  "hoang",
  "duc",
  "dang",
  "ozturk",
  "yilmaz",
  "sahin",
  "celik",
  "muller",
  "gunes",
  "karadzic",
  "mladic",
]);

export function addAccents(name: string, origin: "hispanic" | "balkan" | "other", rng: Prng): Rewrite | null {
  const hispanic = origin === "hispanic";
  const tokens = name.split(" ");
  const ops: string[] = [];
  const out = tokens.map((t) => {
    const lower = t.toLowerCase();
    const dict = hispanic !== NOT_SPANISH.has(lower) ? ACCENTED[lower] : undefined;
    if (dict && dict.toLowerCase() !== lower && rng.chance(0.85)) {
      ops.push(`accent:${lower}`);
      return likeCase(t, dict.toLowerCase());
    }
    const rule = hispanic
      ? (accentEz(lower) ?? (rng.chance(0.5) ? accentOn(lower) : null))
      : origin === "balkan"
        ? accentIc(lower)
        : null;
    if (rule && rng.chance(0.8)) {
      ops.push(`accent-rule:${lower}`);
      return likeCase(t, rule);
    }
    return t;
  });
  return ops.length ? { name: out.join(" "), op: ops.join(",") } : null;
}

// ——— Typos ————————————————————————————————————————————————————————————————————————————————————————————
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One insertion, deletion, substitution or transposition in one token of at least 5 letters. */
export function typo(name: string, rng: Prng): Rewrite | null {
  const tokens = name.split(" ");
  const long = tokens.map((t, i) => [t, i] as const).filter(([t]) => /^\p{L}{5,}$/u.test(t));
  if (long.length === 0) return null;
  const [token, index] = rng.pick(long);
  const kind = rng.pick(["insert", "delete", "substitute", "transpose"] as const);
  const lower = token.toLowerCase();
  const at = rng.int(1, lower.length - 2);
  let changed: string;
  if (kind === "insert") changed = lower.slice(0, at) + rng.pick([...LETTERS]) + lower.slice(at);
  else if (kind === "delete") changed = lower.slice(0, at) + lower.slice(at + 1);
  else if (kind === "substitute") {
    const others = [...LETTERS].filter((c) => c !== lower[at]);
    changed = lower.slice(0, at) + rng.pick(others) + lower.slice(at + 1);
  } else {
    if (lower[at] === lower[at + 1]) return null;
    changed = lower.slice(0, at) + lower[at + 1] + lower[at] + lower.slice(at + 2);
  }
  if (changed === lower) return null;
  tokens[index] = likeCase(token, changed);
  return { name: tokens.join(" "), op: `typo:${kind}` };
}

// ——— Companies ————————————————————————————————————————————————————————————————————————————————————————
/** Legal forms that mean the same thing, as a customer may write any of them. */
const LEGAL_FORMS: readonly (readonly string[])[] = [
  [
    "LLC",
    "L.L.C.",
    "Limited Liability Company",
    "OOO",
    "Obshchestvo s Ogranichennoi Otvetstvennostyu",
    "Limited",
  ],
  ["Ltd", "Ltd.", "Limited", "Company Limited", "Co. Ltd"],
  ["Co., Ltd.", "Co. Ltd", "Company Limited", "Co Limited"],
  ["GmbH", "G.m.b.H.", "Gesellschaft mit beschrankter Haftung"],
  ["S.A.", "SA", "Sociedad Anonima", "S.A"],
  ["JSC", "Joint Stock Company", "AO", "Aktsionernoe Obshchestvo", "OAO", "Open Joint Stock Company"],
  ["PJSC", "Public Joint Stock Company", "PAO"],
  ["Inc", "Inc.", "Incorporated"],
  ["Corp", "Corp.", "Corporation"],
  ["FZE", "Free Zone Establishment"],
  ["LLP", "Limited Liability Partnership"],
  ["S.A. de C.V.", "SA de CV", "Sociedad Anonima de Capital Variable"],
];

const formPattern = (form: string) =>
  new RegExp(`(?<![\\p{L}])${form.replace(/[.]/g, "\\.?").replace(/ /g, "[\\s,]+")}(?![\\p{L}])`, "iu");

/** `OOO VOLGA GROUP` → `Volga Group LLC`; `X CO., LTD.` → `X Company Limited`; `THE X` → `X`. */
export function companyRewrite(listed: string, rng: Prng): Rewrite | null {
  let name = listed.replace(/["“”]/g, "").replace(/\s+/g, " ").trim();
  const ops: string[] = [];
  if (/^the /i.test(name)) {
    name = name.slice(4);
    ops.push("company:the-dropped");
  }
  for (const group of LEGAL_FORMS) {
    // Longest forms first, so `LIMITED LIABILITY COMPANY` is read whole, not as `LIMITED`.
    const forms = [...group].sort((a, b) => b.length - a.length);
    const found = forms.map((f) => ({ f, m: formPattern(f).exec(name) })).find((x) => x.m);
    if (!found?.m) continue;
    const m = found.m;
    const to = rng.pick(group.filter((f) => f.toLowerCase() !== found.f.toLowerCase()));
    let rest = (name.slice(0, m.index) + name.slice(m.index + m[0]!.length))
      .replace(/\s*,\s*$/, "")
      .replace(/^\s*,\s*/, "");
    rest = rest.replace(/\s+/g, " ").trim();
    if (!rest) continue;
    const atStart = m.index === 0;
    const moveToEnd = atStart ? rng.chance(0.7) : rng.chance(0.15);
    const putFirst = atStart ? !moveToEnd : moveToEnd;
    name = putFirst ? `${to} ${rest}` : `${rest.replace(/,$/, "")} ${to}`;
    ops.push(`company:form ${found.f}>${to}`);
    if (moveToEnd) ops.push("company:form-moved");
    break;
  }
  if (ops.length === 0) return null;
  const titled = name
    .toLowerCase()
    .replace(/(^|[\s\-(."/])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase())
    .replace(/\b(Llc|Jsc|Pjsc|Ooo|Oao|Pao|Ao|Fze|Llp|Sa|Gmbh|L\.l\.c\.|S\.a\.)(?=\s|$)/g, (w) =>
      w === "Gmbh" ? "GmbH" : w.toUpperCase(),
    );
  return { name: titled, op: ops.join(",") };
}
