/**
 * Letters of other scripts (and Latin's own small capitals) that read as a Latin letter, after Unicode's
 * confusables (TR39) for the scripts a name can be spelled in to pass as a Latin one: Cyrillic, Greek, Armenian
 * and Cherokee. Each row pairs its letters with the Latin letters at the same places. Case matters (Greek Η
 * reads as H, its small η as n), so the map runs before case folding; accents are already gone (Cyrillic й is
 * и by then). Written out rather than taken from a package: screening needs these rows, not ICU's whole table.
 */
const ROWS: readonly (readonly [string, string])[] = [
  // Cyrillic capitals.
  ["АВЕКМНОРСТУХЅІЈԚԜҮӀЬҺԌѴѠ", "ABEKMHOPCTYXSIJQWYlbhGVW"],
  // Cyrillic small letters: several read as Latin small capitals (н as ʜ, т as ᴛ, к as ᴋ).
  ["авгекмнопрстухѕіјԛԝүӏьһԁԍѵѡ", "abrekmhonpctyxsijqwylbhdgvw"],
  // Greek capitals, then small letters.
  ["ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹͿϜ", "ABEZHIKMNOPTYXCJF"],
  ["αβγεηικμνορστυχωϲϳ", "abyenikuvopotuxwcj"],
  // Armenian.
  ["ՕՍհոսօցզ", "OUhnuogq"],
  // Cherokee capitals.
  ["ᎪᏴᏟᎠᎬᏀᎻᎥᎫᏦᏞᎷᏢᏒᏚᎢᏙᎳᏃ", "ABCDEGHiJKLMPRSTVWZ"],
  // Latin small capitals and letter variants, which no decomposition turns into the plain letter.
  ["ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢɑɡɩɛʋƅ", "abcdefghijklmnoprstuvwyzagieub"],
];

const LOOK_ALIKES = new Map<string, string>();
for (const [from, to] of ROWS) [...from].forEach((letter, at) => void LOOK_ALIKES.set(letter, to[at]!));

const LOOK_ALIKE = new RegExp(`[${[...LOOK_ALIKES.keys()].join("")}]`, "gu");
const ALL_LATIN = /^\p{Script=Latin}+$/u;

/**
 * Each word whose letters all read as Latin ones written with those (TR39's skeleton, for names): "Νоеl" and
 * "НЕАТН" are read "Noel" and "HEATH". A word with letters of its own script left ("Иван", "Владимир") is a
 * name in that script and stays as written, for its own matching (transliteration), not half Latin.
 */
export function latinSkeleton(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => {
    const skeleton = word.replace(LOOK_ALIKE, (c) => LOOK_ALIKES.get(c) ?? c);
    return ALL_LATIN.test(skeleton) ? skeleton : word;
  });
}
