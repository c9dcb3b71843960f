// XML text for untrusted names. Invariant: the result is well-formed XML 1.0 character data and
// attribute-value text: the five markup characters are escaped, and characters XML 1.0 forbids
// (C0 controls other than tab and newline, U+FFFE, U+FFFF, lone surrogates) are removed or, for
// lone surrogates, replaced with U+FFFD, so a name can never end an element or start markup.

const ILLEGAL = /[\u0000-\u0008\u000b-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const MARKUP = /[&<>"']/g;
const REPLACE: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(s: string): string {
  let out = s;
  if (ILLEGAL.test(out)) {
    ILLEGAL.lastIndex = 0;
    out = out.replace(ILLEGAL, (c) => (c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff ? '\ufffd' : ''));
  }
  ILLEGAL.lastIndex = 0;
  return out.replace(MARKUP, (c) => REPLACE[c]);
}

/**
 * A JavaScript string literal safe inside a CDATA section of an SVG <script>: JSON, with `<`,
 * `>` and `&` as \u escapes (so neither `]]>` nor `</script>` can appear) and U+2028/9 escaped.
 */
export function scriptString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}
