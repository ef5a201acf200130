// How discovery compares names: case and diacritics do not matter ("Cadência" is "cadencia"),
// typographic apostrophes and dashes are the plain ones, and runs of spaces are one space.
// Used for configured brands, rejected names, stop words and candidates alike.
const PLAIN_ASCII = /^[a-z0-9 .'&+-]*$/

export function foldName(name: string): string {
  // Most words are plain lower-case ASCII already (the scan folds every word it reads).
  if (PLAIN_ASCII.test(name)) return name.includes('  ') || name.startsWith(' ') || name.endsWith(' ') ? name.replace(/\s+/g, ' ').trim() : name
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’‘ʼ′]/g, "'")
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The folded name as whole tokens, for "is this name inside that one" checks. */
export const nameTokens = (key: string): string[] => key.split(' ').filter(Boolean)

/** Whether `inner` (tokens) occurs in `outer` (tokens) as consecutive whole tokens. */
export function containsTokens(outer: readonly string[], inner: readonly string[]): boolean {
  if (inner.length === 0 || inner.length > outer.length) return false
  for (let i = 0; i + inner.length <= outer.length; i++) {
    let all = true
    for (let j = 0; j < inner.length; j++) {
      if (outer[i + j] !== inner[j]) {
        all = false
        break
      }
    }
    if (all) return true
  }
  return false
}
