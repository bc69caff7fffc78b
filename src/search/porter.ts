/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), as in Porter's own
 * reference implementations (with their two departures from the paper: `bli`→`ble` instead of
 * `abli`→`able`, and `logi`→`log`). Input: one lowercase ASCII word; anything else is returned as
 * is. Pure function, no state.
 */

const STEP2: Record<string, string> = {
  ational: 'ate',
  tional: 'tion',
  enci: 'ence',
  anci: 'ance',
  izer: 'ize',
  bli: 'ble',
  alli: 'al',
  entli: 'ent',
  eli: 'e',
  ousli: 'ous',
  ization: 'ize',
  ation: 'ate',
  ator: 'ate',
  alism: 'al',
  iveness: 'ive',
  fulness: 'ful',
  ousness: 'ous',
  aliti: 'al',
  iviti: 'ive',
  biliti: 'ble',
  logi: 'log',
};

const STEP3: Record<string, string> = {
  icate: 'ic',
  ative: '',
  alize: 'al',
  iciti: 'ic',
  ical: 'ic',
  ful: '',
  ness: '',
};

// c = consonant, v = vowel; `y` after a consonant is a vowel (an initial `y` is turned into `Y`).
const c = '[^aeiou]';
const v = '[aeiouy]';
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
/** measure > 0 */
const MGR0 = new RegExp(`^(${C})?${V}${C}`);
/** measure == 1 */
const MEQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
/** measure > 1 */
const MGR1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
/** the stem contains a vowel */
const HAS_VOWEL = new RegExp(`^(${C})?${v}`);
/** consonant-vowel-consonant, the last not w, x or y (`*o`) */
const CVC = new RegExp(`^${C}${v}[^aeiouwxy]$`);

const STEP1A_1 = /^(.+?)(ss|i)es$/;
const STEP1A_2 = /^(.+?)([^s])s$/;
const STEP1B_1 = /^(.+?)eed$/;
const STEP1B_2 = /^(.+?)(ed|ing)$/;
const STEP1B_FIX = /(at|bl|iz)$/;
const DOUBLE = /([^aeiouylsz])\1$/;
const STEP1C = /^(.+?)y$/;
const STEP2_RE =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)(ion)$/;
const STEP5_E = /^(.+?)e$/;
const LOWER_ASCII = /^[a-z]+$/;

/** The Porter stem of a lowercase ASCII word (`connections` → `connect`); other input unchanged. */
export function porterStem(word: string): string {
  if (word.length < 3 || !LOWER_ASCII.test(word)) return word;
  let w = word;
  const initialY = w[0] === 'y';
  if (initialY) w = `Y${w.slice(1)}`;

  // Step 1a: plurals.
  let m = STEP1A_1.exec(w);
  if (m) w = m[1]! + m[2]!;
  else {
    m = STEP1A_2.exec(w);
    if (m) w = m[1]! + m[2]!;
  }

  // Step 1b: -eed, -ed, -ing.
  m = STEP1B_1.exec(w);
  if (m) {
    if (MGR0.test(m[1]!)) w = w.slice(0, -1);
  } else {
    m = STEP1B_2.exec(w);
    if (m && HAS_VOWEL.test(m[1]!)) {
      w = m[1]!;
      if (STEP1B_FIX.test(w)) w += 'e';
      else if (DOUBLE.test(w)) w = w.slice(0, -1);
      else if (CVC.test(w)) w += 'e';
    }
  }

  // Step 1c: y → i when the stem has a vowel.
  m = STEP1C.exec(w);
  if (m && HAS_VOWEL.test(m[1]!)) w = `${m[1]!}i`;

  // Step 2: double suffixes to single ones (measure > 0).
  m = STEP2_RE.exec(w);
  if (m && MGR0.test(m[1]!)) w = m[1]! + STEP2[m[2]!]!;

  // Step 3: -ic-, -full, -ness etc. (measure > 0).
  m = STEP3_RE.exec(w);
  if (m && MGR0.test(m[1]!)) w = m[1]! + STEP3[m[2]!]!;

  // Step 4: strip -ant, -ence etc. (measure > 1).
  m = STEP4_RE.exec(w);
  if (m) {
    if (MGR1.test(m[1]!)) w = m[1]!;
  } else {
    m = STEP4_ION.exec(w);
    if (m) {
      const stem = m[1]! + m[2]!;
      if (MGR1.test(stem)) w = stem;
    }
  }

  // Step 5a: a final -e.
  m = STEP5_E.exec(w);
  if (m) {
    const stem = m[1]!;
    if (MGR1.test(stem) || (MEQ1.test(stem) && !CVC.test(stem))) w = stem;
  }
  // Step 5b: -ll → -l (measure > 1).
  if (w.endsWith('ll') && MGR1.test(w)) w = w.slice(0, -1);

  if (initialY) w = `y${w.slice(1)}`;
  return w;
}
