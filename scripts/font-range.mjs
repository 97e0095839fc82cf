// The characters web/fonts/inter-basic-wght.woff2 holds: printable ASCII plus the punctuation and symbols the
// product's texts use (dashes, quotes, ellipsis, bullets, arrows, minus, ×, §, ©). web/styles.css repeats it as
// the face's unicode-range; scripts/font-range.test.mjs checks the two agree and that the web's texts need
// nothing else.
export const BASIC_UNICODE_RANGE =
  "U+0020-007E,U+00A0,U+00A7,U+00A9,U+00AE,U+00B7,U+00D7,U+2013-2014,U+2018-2019,U+201C-201D,U+2022,U+2026,U+2190,U+2192,U+2212";
