/**
 * A name's words as the matcher weighs them (decision 052): Cyrillic written in Latin letters, particles read
 * the same way everywhere, legal forms dropped, generic words marked, and each word brought to one canonical
 * spelling of the romanisations it is written in (Mohammed/Muhammad/Mohamed, Yusuf/Yousef, Aleksandr/Alexander,
 * Zhang/Chang…). Both a listed name and a screened one go through it, so the two meet on one spelling.
 */

/** Cyrillic to Latin (BGN/PCGN's, simplified: й reaches here as и, its breve folded away with the accents). */
const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  і: "i",
  ї: "yi",
  є: "ye",
  ґ: "g",
  ў: "u",
};

/** A lower-case word in Cyrillic letters written in Latin ones; other words unchanged. */
export function cyrillicToLatin(word: string): string {
  if (!/\p{Script=Cyrillic}/u.test(word)) return word;
  let out = "";
  for (const c of word) out += CYRILLIC[c] ?? c;
  return out;
}

/** Titles and honorifics: no identity in them. */
const TITLES = new Set([
  "mr",
  "mrs",
  "ms",
  "miss",
  "dr",
  "prof",
  "sheikh",
  "shaikh",
  "shaykh",
  "sheik",
  "haji",
  "hajji",
  "hajj",
  "mullah",
  "mulla",
  "maulana",
  "maulvi",
  "mawlawi",
  "sayyed",
  "sayyid",
  "seyed",
  "general",
  "colonel",
  "captain",
]);

/** Articles and joining words read as nothing: al-Rashid is Rashid, de la Cruz is Cruz (both sides alike). */
const ARTICLES = new Set([
  "al",
  "el",
  "ul",
  "ol",
  "de",
  "del",
  "dela",
  "la",
  "las",
  "los",
  "da",
  "das",
  "do",
  "dos",
  "di",
  "van",
  "der",
  "den",
  "von",
  "y",
  "of",
  "the",
  "and",
  "for",
  "und",
  "et",
]);

/** "Son of" words: dropped when they join two names (Osama bin Laden is Osama Laden, as BIN LADEN, Usama is). */
const CONNECTORS = new Set(["bin", "ibn", "bint", "binti", "ben", "ould", "walad", "wuld"]);

/** Words joined to the one after them (past an article): Abu Bakr, Abd al-Aziz, Abdul Aziz are one word each. */
const JOINERS: Record<string, string> = {
  abu: "abu",
  abou: "abu",
  abo: "abu",
  abul: "abu",
  abd: "abd",
  abdul: "abd",
  abdel: "abd",
  abdal: "abd",
  abdol: "abd",
  abdoul: "abd",
  abdur: "abd",
  abdu: "abd",
  umm: "um",
  um: "um",
  omm: "um",
};

/**
 * Legal forms, dropped (LLC, Ltd, GmbH, OOO… say what a company is, not which): one word or a run of words
 * (the Russian ones written out).
 */
const LEGAL_FORMS = new Set([
  "llc",
  "ltd",
  "limited",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "gmbh",
  "ag",
  "kg",
  "ooo",
  "zao",
  "oao",
  "pao",
  "ao",
  "tov",
  "sa",
  "sarl",
  "sas",
  "srl",
  "spa",
  "bv",
  "nv",
  "plc",
  "llp",
  "lp",
  "pjsc",
  "ojsc",
  "cjsc",
  "jsc",
  "pte",
  "pty",
  "fze",
  "fzco",
  "fzc",
  "fzllc",
  "sdn",
  "bhd",
  "lda",
  "ltda",
  "sae",
  "wll",
  "kft",
  "doo",
  "as",
  "ab",
  "oy",
  "sl",
]);
const LEGAL_PHRASES: readonly (readonly string[])[] = [
  ["obshchestvo", "s", "ogranichennoi", "otvetstvennostyu"],
  ["obshchestvo", "s", "ogranichennoy", "otvetstvennostyu"],
  ["obshchestvo", "s", "ogranichennoi", "otvetstvennostiu"],
  ["aktsionernoe", "obshchestvo"],
  ["aktsionernoye", "obshchestvo"],
  ["zakrytoe", "aktsionernoe", "obshchestvo"],
  ["otkrytoe", "aktsionernoe", "obshchestvo"],
  ["publichnoe", "aktsionernoe", "obshchestvo"],
  ["limited", "liability", "company"],
  ["joint", "stock", "company"],
  ["private", "joint", "stock", "company"],
  ["public", "joint", "stock", "company"],
  ["sociedad", "anonima"],
  ["societe", "anonyme"],
  ["free", "zone", "establishment"],
];

/**
 * Variants of one name spelled apart by romanisation, to the form the table's row starts with. Looked up before
 * and after the spelling rules (canonicalToken), so a variant the rules already bring together needs no row.
 */
const VARIANT_ROWS: readonly string[] = [
  // Arabic and Persian given names.
  "muhammad mohammed mohammad mohamed mohamad muhamad muhammed mohd mohamud muhamed mohammd mohummad mouhamed mouhammad mahomed mohamet muhamet mhd",
  "ahmad ahmed ahmet ahmat akhmad akhmed",
  "husayn hussein hossein husain hussain husein hosein houssein hossain hussien hosseyn huseyn husseyn",
  "hasan hassan hasen hassen",
  "yusuf yousef yousif youssef yusif yosef yussuf yousuf yusef yousof yussef",
  "ibrahim ebrahim ibraheem ibrahem ebrahem brahim",
  "mahmud mahmoud mahmood mehmood",
  "mustafa mostafa moustafa mustapha mostapha mustafah",
  "umar omar omer",
  "usama osama ousama oussama",
  "uthman othman osman usman osmane",
  "jafar jaafar jaffar djafar",
  "hamid hameed",
  "rashid rasheed rachid",
  "said saeed saeid saiid",
  "khalid khaled khaleed",
  "walid waleed oualid",
  "nasir nasser naser nassir nasr",
  "karim kareem",
  "rahman rehman rahmane",
  "rahim raheem",
  "aziz azeez",
  "majid majeed maged magid",
  "faisal faysal feisal faysel",
  "fatima fatemeh fatma fatimah",
  "zaynab zainab zeinab",
  "qasim kasim qassem qasem ghasem kassem gasim",
  "hizballah hezbollah hizbollah hizbullah",
  "qaida qaeda kaida",
  "abdallah abdullah abdulla abdalla abdollah",
  "ismail ismael esmail esmaeil",
  "ali aly",
  "yahya yehia yahia",
  "musa moussa mousa moosa",
  "isa issa eissa",
  "jamal gamal djamel jamel",
  "jalal galal djalal",
  "tariq tarek tarik tareq",
  "sulayman sulaiman suleiman soliman sleiman suleyman soleiman",
  "abbas abas",
  "reza rida ridha",
  "mehdi mahdi",
  "morteza murtaza mortaza",
  "mojtaba mujtaba",
  "hashim hashem hachem",
  "habib habeeb",
  "nabil nabeel",
  "adil adel",
  "zayd zaid zeid",
  "ayman aiman",
  "anwar anouar",
  "jihad djihad",
  // Russian and other Slavic given names.
  "aleksandr alexander aleksander alexandr oleksandr olexandr aleksandar",
  "aleksei alexei alexey aleksey oleksii alexej",
  "sergei sergey serhii serhiy sergej",
  "evgeni yevgeny evgeny yevgeniy evgeniy evgenii yevhen jevgenij",
  "dmitri dmitry dmitriy dmitrii dmytro",
  "yuri yury yuriy iouri yurii jurij",
  "mikhail michail mykhailo mihail",
  "andrei andrey andriy andrii andrej",
  "nikolai nikolay mykola nicolai",
  "vladimir volodymyr wladimir",
  "viktor victor",
  "pyotr petr pavlo",
  "pavel paul",
  "grigori grigory grigoriy hryhorii",
  "valeri valery valeriy valerii",
  "anatoli anatoly anatoliy anatolii",
  "vasili vasily vasiliy vasyl",
  "konstantin kostiantyn constantin",
  "igor ihor",
  "oleg oleh",
  "yelena elena olena",
  "tatiana tatyana tetiana",
  "natalia natalya nataliya",
  "yulia yuliya julia",
  "ekaterina yekaterina kateryna",
  // Chinese surnames: pinyin and Wade–Giles.
  "zhang chang",
  "zhou chou",
  "zhao chao",
  "zhu chu",
  "zheng cheng",
  "xu hsu",
  "xie hsieh",
  "xiao hsiao",
  "xiong hsiung",
  "qiu chiu",
  "qian chien",
  "jiang chiang",
  "cai tsai",
  "cao tsao",
  "cui tsui",
  "guo kuo",
  "gao kao",
  "gong kung",
  "huang hwang",
  "deng teng",
  "dong tung",
  "ding ting",
  "zeng tseng",
  "zou tsou",
  "rong jung",
  "ren jen",
  "li lee",
  "wu woo",
];

const VARIANTS = new Map<string, string>();
for (const row of VARIANT_ROWS) {
  const [head, ...rest] = row.split(" ");
  for (const variant of rest) VARIANTS.set(variant, head!);
}
const headsRuled = new Map<string, string>();
for (const row of VARIANT_ROWS) {
  const [head, ...rest] = row.split(" ");
  for (const variant of [head!, ...rest]) headsRuled.set(spellingRules(variant), head!);
}

/**
 * Spelling rules every word goes through, for sounds that romanisations write apart: ph/f, q/k, x/ks, w/v,
 * ou/oo/u, ee/i, a final y/iy/ii as i, a leading "ye" as "e", letters written twice once.
 */
function spellingRules(word: string): string {
  return word
    .replace(/shch/g, "sh")
    .replace(/sch/g, "sh")
    .replace(/tch/g, "ch")
    .replace(/dzh/g, "j")
    .replace(/ph/g, "f")
    .replace(/ck/g, "k")
    .replace(/q/g, "k")
    .replace(/x/g, "ks")
    .replace(/w/g, "v")
    .replace(/dh/g, "d")
    .replace(/gh/g, "g")
    .replace(/ou/g, "u")
    .replace(/oo/g, "u")
    .replace(/ee/g, "i")
    .replace(/^ye(?=[^aeiouy])/, "e")
    .replace(/(?<=[^aeiou])y(?=[^aeiou]|$)/g, "i")
    .replace(/(iy|ii|yi)$/, "i")
    .replace(/ey$/, "ei")
    .replace(/(.)\1+/g, "$1");
}

/** The prefix of a glued Abd-name ("abdullatif", "abdurrahman", "abdelaziz"): read as abd + the name. */
const GLUED_ABD = /^abd(?:[aeiou]{1,2}(?:l|r(?=r)))?(?=[a-z]{2,})/;

/** One word's canonical spelling: the variant table, then the spelling rules, then the table on the result. */
export function canonicalToken(word: string): string {
  const listed = VARIANTS.get(word);
  if (listed) return listed;
  let w = word;
  const glued = GLUED_ABD.exec(w);
  if (glued && w.length > glued[0].length && !VARIANTS.has(w)) w = `abd${w.slice(glued[0].length)}`;
  if (!/^[a-z]+$/.test(w)) return w;
  // The Arabic article written glued (Alshammat, Elhadi) is the article written apart: dropped.
  const article = /^(?:al|el)(?=[^aeiouy])(?=[a-z]{4,}$)/.exec(w);
  if (article && !VARIANTS.has(w)) w = w.slice(2);
  const ruled = spellingRules(w);
  return headsRuled.get(ruled) ?? VARIANTS.get(ruled) ?? ruled;
}

/**
 * Generic words of company names: they weigh little (GENERIC_WEIGHT), so "Bank of Commerce" shares nothing that
 * counts with COMMERCIAL BANK OF SYRIA. Canonical spellings (after canonicalToken).
 */
const GENERIC = new Set(
  [
    "bank",
    "banque",
    "banco",
    "commerce",
    "commercial",
    "trading",
    "trade",
    "traders",
    "company",
    "companies",
    "international",
    "intl",
    "group",
    "holding",
    "holdings",
    "industries",
    "industry",
    "industrial",
    "services",
    "service",
    "general",
    "national",
    "enterprise",
    "enterprises",
    "import",
    "export",
    "shipping",
    "investment",
    "investments",
    "development",
    "construction",
    "engineering",
    "technology",
    "technologies",
    "systems",
    "solutions",
    "global",
    "world",
    "united",
    "foundation",
    "organization",
    "organisation",
    "association",
    "society",
    "center",
    "centre",
    "agency",
    "institute",
    "establishment",
    "factory",
    "manufacturing",
    "products",
    "resources",
    "logistics",
    "exchange",
    "finance",
    "financial",
    "capital",
    "partners",
    "management",
    "consulting",
    "transport",
    "marine",
    "maritime",
    "airlines",
    "air",
    "lines",
    "line",
    "energy",
    "oil",
    "gas",
    "petroleum",
    "petrochemical",
    "industrial",
    "economic",
    "import",
    "llc",
    "firm",
    "office",
    "branch",
    "ministry",
    "state",
    "public",
    "private",
    "joint",
    "stock",
    "new",
    "star",
    "gold",
    "golden",
    "east",
    "west",
    "middle",
    "north",
    "south",
    "eastern",
    "western",
    "jsc",
  ].map((w) => canonicalToken(w)),
);

export interface CanonWord {
  /** The canonical spelling. */
  text: string;
  /** A generic word of company names (bank, trading…): weighs little. */
  generic: boolean;
}

/**
 * A name's words (folded, in written order) as canonical words: titles, articles and legal forms gone, "son of"
 * words dropped between names, Abu/Abd joined to the name after them, the rest canonicalToken'd.
 */
export function canonicalWords(words: readonly string[]): CanonWord[] {
  const latin = words.map((w) => cyrillicToLatin(w)).flatMap((w) => (w === "" ? [] : [w]));
  const kept: string[] = [];
  for (let i = 0; i < latin.length; i++) {
    const phrase = LEGAL_PHRASES.find((p) => p.every((w, k) => latin[i + k] === w));
    if (phrase) {
      i += phrase.length - 1;
      continue;
    }
    const w = latin[i]!;
    if (TITLES.has(w) || LEGAL_FORMS.has(w)) continue;
    kept.push(w);
  }
  const out: CanonWord[] = [];
  for (let i = 0; i < kept.length; i++) {
    const w = kept[i]!;
    if (ARTICLES.has(w) && kept.length > 1) continue;
    // "Son of" before a name, in names of three words or more: "Ben Smith" keeps its Ben.
    if (CONNECTORS.has(w) && i + 1 < kept.length && kept.length >= 3) continue;
    const joiner = JOINERS[w];
    if (joiner) {
      let j = i + 1;
      while (j < kept.length && ARTICLES.has(kept[j]!)) j++;
      if (j < kept.length) {
        out.push(word(canonicalToken(joiner + kept[j]!)));
        i = j;
        continue;
      }
    }
    out.push(word(canonicalToken(w)));
  }
  return out;
}

const word = (text: string): CanonWord => ({ text, generic: GENERIC.has(text) });
