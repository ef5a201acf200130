// What every SDK-backed adapter is built with (see index.ts for where the values come from).
import { providerError } from './provider-errors.js'

export interface SdkAdapterOptions {
  baseURL: string
  /** a fetch to use instead of the global one (tests, proxies) */
  fetch?: typeof fetch
  /** used when the request carries no key (the caller found no stored credential) */
  fallbackApiKey?: string
}

/** No key at all: the target cannot work until one is stored, so it is flagged, not retried. */
export function missingKey(label: string, envName: string) {
  return providerError(label, 'unauthorized', `no API key: store a credential for this provider or set ${envName}`)
}
