// What IDNA2008 lets a registered label hold (RFC 5891–5893), as far as the runtime's
// Unicode properties tell it: UTS #46 (the URL parser's mapping) is lenient and lets through
// symbols, emoji and right-to-left labels that break the Bidi rule, which registries refuse.
// Pure: the U-label of one label in, why it is refused (or null) out.
//
// - PVALID (RFC 5892 §2): letters and digits — general categories Ll, Lo, Lm, Mn, Mc, Nd —
//   and the hyphen; not Default_Ignorable code points (ZWJ and ZWNJ, whose CONTEXTJ rules
//   need the joining type JS does not expose, are refused with them); NFC-stable.
//   Symbols (So, Sk: emoji), punctuation and upper case are DISALLOWED.
// - Scripts (the registries' IDN tables): a label's letters are of one script, but for
//   the mixes Japanese (Han, Hiragana, Katakana) and Korean (Han, Hangul) use.
// - Bidi (RFC 5893 §2): a label with right-to-left letters (Hebrew, Arabic, Syriac, Thaana,
//   N'Ko) starts with one, holds no left-to-right letters and no mix of Arabic-Indic and
//   extended Arabic-Indic digits (RFC 5892 Appendix A.8, A.9).

const PVALID = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}-]$/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Hebrew",
  "Arabic",
  "Syriac",
  "Thaana",
  "Nko",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Thai",
  "Lao",
  "Tibetan",
  "Georgian",
  "Hangul",
  "Ethiopic",
  "Khmer",
  "Mongolian",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
] as const;
const SCRIPT_OF = SCRIPTS.map((script) => [script, new RegExp(`^\\p{Script_Extensions=${script}}$`, "u")] as const);
const SHARED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;
const RTL = new Set(["Hebrew", "Arabic", "Syriac", "Thaana", "Nko"]);
const ALLOWED_MIXES = [new Set(["Han", "Hiragana", "Katakana"]), new Set(["Han", "Hangul"]), new Set(["Han", "Bopomofo"])];

function scriptOf(char: string): string | null {
  if (!/\p{L}/u.test(char)) return null;
  // Script_Extensions: the prolonged sound mark ー is Common, and belongs to kana.
  for (const [script, pattern] of SCRIPT_OF) if (pattern.test(char)) return script;
  return SHARED.test(char) ? null : "Other";
}

/** Why IDNA2008 refuses this U-label (null when it admits it); names the code point at fault. */
export function idna2008LabelProblem(label: string): string | null {
  if (label.normalize("NFC") !== label) return `"${label}" is not in Unicode Normalization Form C (RFC 5891 §5.3)`;
  for (const char of label) {
    const point = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    if (IGNORABLE.test(char) || !PVALID.test(char)) {
      return `"${label}" holds ${point} "${char}", which IDNA2008 does not allow in a label (RFC 5892: only letters, marks, digits and the hyphen)`;
    }
  }
  const scripts = new Set([...label].map(scriptOf).filter((s): s is string => s !== null));
  if (scripts.size > 1 && !ALLOWED_MIXES.some((mix) => [...scripts].every((s) => mix.has(s)))) {
    return `"${label}" mixes the ${[...scripts].join(" and ")} scripts; a registered label uses one (the registries' IDN tables)`;
  }
  const rtl = [...scripts].some((s) => RTL.has(s));
  if (rtl) {
    const first = [...label][0]!;
    if (!RTL.has(scriptOf(first) ?? "")) return `"${label}" is right-to-left and must start with a right-to-left letter (RFC 5893 §2, rule 1)`;
    if (/[\u0660-\u0669]/u.test(label) && /[\u06f0-\u06f9]/u.test(label)) {
      return `"${label}" mixes Arabic-Indic and extended Arabic-Indic digits (RFC 5892 Appendix A.8)`;
    }
  }
  return null;
}
