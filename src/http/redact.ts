// Secrets a client puts where they do not belong (an API key in the query string, or as
// the value of some other parameter) must not reach the logs. Keys are found by their
// prefix, also percent-encoded, and by the names clients commonly give them.

const KEY_PATTERN = /bvk(?:_|%5f)[0-9a-z%]*/gi
const SECRET_NAMES = /^(?:api[_-]?key|apikey|key|token|access[_-]?token|auth|authorization|bearer|secret)$/i
export const REDACTED = '[redacted]'

/** Replaces every Beacon key in free text. */
export function redactSecrets(text: string): string {
  return text.replace(KEY_PATTERN, REDACTED)
}

/** A URL for the logs: Beacon keys anywhere, and the values of secret-sounding parameters, replaced. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?')
  if (question === -1) return redactSecrets(url)
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      if (equals === -1) return pair
      let name = pair.slice(0, equals)
      try {
        name = decodeURIComponent(name.replaceAll('+', ' '))
      } catch {
        // a malformed name is logged as sent; its value is still checked below
      }
      return SECRET_NAMES.test(name.replace(/\[\]$/, '')) ? `${pair.slice(0, equals)}=${REDACTED}` : pair
    })
    .join('&')
  return redactSecrets(`${url.slice(0, question)}?${query}`)
}
