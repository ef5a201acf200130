// Guard for URLs Beacon itself connects to on a user's behalf (webhooks, notification channels,
// openai_compatible base URLs; docs/security.md, docs/collection.md "Outbound requests"): a key
// holder must not be able to make the server reach its own network (SSRF). Private,
// loopback, unique-local, CGNAT and similar addresses are refused unless the operator
// allows them (WEBHOOK_ALLOW_PRIVATE=true, e.g. a receiver on the same host); link-local
// addresses and cloud metadata endpoints are refused always, since they hand out cloud
// credentials. The check runs twice: when the URL is saved (literal address or a DNS
// lookup) and again when connecting, on the addresses the connection will actually use
// (a `lookup` for http.request), so a name that resolves elsewhere later (DNS rebinding)
// gains nothing.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'

export type AddressClass = 'public' | 'private' | 'forbidden'

export interface AddressVerdict {
  class: AddressClass
  /** what the address is, for messages: "loopback", "link-local", … */
  kind: string
}

export class OutboundUrlError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OutboundUrlError'
  }
}

/** Resolves a host name to all its addresses (dns.lookup by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))))

export interface OutboundPolicy {
  /** WEBHOOK_ALLOW_PRIVATE, COLLECTION_ALLOW_PRIVATE */
  allowPrivate: boolean
  /** who calls out, for messages: the setting that allows private addresses and what may never reach the forbidden ones (default: webhooks) */
  caller?: OutboundCaller
  resolver?: Resolver
}

export interface OutboundCaller {
  setting: string
  what: string
}

const WEBHOOKS: OutboundCaller = { setting: 'WEBHOOK_ALLOW_PRIVATE', what: 'webhooks' }

// Hosts that answer cloud instance metadata by name (GCP, Azure, OpenStack and friends).
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'metadata.azure.internal', 'instance-data', 'instance-data.ec2.internal'])

// Cloud metadata endpoints outside the link-local range (which is refused as a whole):
// Alibaba (in CGNAT space), Azure's wire server (a public address), AWS over IPv6, Oracle.
const METADATA_V4 = new Set(['100.100.100.200', '168.63.129.16', '192.0.0.192'])
const METADATA_V6 = [0xfd00_0ec2_0000_0000_0000_0000_0000_0254n]

type V4Range = [base: number, prefix: number, verdict: AddressVerdict]

const V4_RANGES: V4Range[] = [
  [ip4('0.0.0.0'), 8, { class: 'forbidden', kind: '"this network" (0.0.0.0/8)' }],
  [ip4('169.254.0.0'), 16, { class: 'forbidden', kind: 'link-local (169.254.0.0/16, where cloud metadata lives)' }],
  [ip4('224.0.0.0'), 4, { class: 'forbidden', kind: 'multicast' }],
  [ip4('240.0.0.0'), 4, { class: 'forbidden', kind: 'reserved or broadcast' }],
  [ip4('127.0.0.0'), 8, { class: 'private', kind: 'loopback' }],
  [ip4('10.0.0.0'), 8, { class: 'private', kind: 'private (10.0.0.0/8)' }],
  [ip4('172.16.0.0'), 12, { class: 'private', kind: 'private (172.16.0.0/12)' }],
  [ip4('192.168.0.0'), 16, { class: 'private', kind: 'private (192.168.0.0/16)' }],
  [ip4('100.64.0.0'), 10, { class: 'private', kind: 'carrier-grade NAT (100.64.0.0/10)' }],
  [ip4('192.0.0.0'), 24, { class: 'private', kind: 'IETF protocol assignments (192.0.0.0/24)' }],
  [ip4('192.0.2.0'), 24, { class: 'private', kind: 'documentation (TEST-NET-1)' }],
  [ip4('198.51.100.0'), 24, { class: 'private', kind: 'documentation (TEST-NET-2)' }],
  [ip4('203.0.113.0'), 24, { class: 'private', kind: 'documentation (TEST-NET-3)' }],
  [ip4('198.18.0.0'), 15, { class: 'private', kind: 'benchmarking (198.18.0.0/15)' }],
]

function ip4(text: string): number {
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)
}

function classifyV4(text: string): AddressVerdict {
  if (METADATA_V4.has(text)) return { class: 'forbidden', kind: 'a cloud metadata endpoint' }
  const value = ip4(text)
  for (const [base, prefix, verdict] of V4_RANGES) {
    const size = 2 ** (32 - prefix)
    if (value >= base && value < base + size) return verdict
  }
  return { class: 'public', kind: 'public' }
}

/** The 128-bit value of an IPv6 address (with or without an embedded dotted quad). */
function ip6(text: string): bigint {
  let address = text.toLowerCase()
  const zone = address.indexOf('%')
  if (zone >= 0) address = address.slice(0, zone)
  // A trailing dotted quad (::ffff:1.2.3.4) is two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (quad) {
    const v4 = ip4(quad[1])
    address = `${address.slice(0, quad.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined]
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group || '0', 16)), 0n)
}

const inV6 = (value: bigint, base: bigint, prefix: number) => value >> BigInt(128 - prefix) === base >> BigInt(128 - prefix)

function v4FromBits(bits: bigint): string {
  const n = Number(bits & 0xffff_ffffn)
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
}

const SEVERITY: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 }

function stricter(a: AddressVerdict, b: AddressVerdict): AddressVerdict {
  return SEVERITY[b.class] > SEVERITY[a.class] ? b : a
}

function classifyV6(text: string): AddressVerdict {
  const value = ip6(text)
  if (METADATA_V6.includes(value)) return { class: 'forbidden', kind: 'a cloud metadata endpoint' }
  if (value === 0n) return { class: 'forbidden', kind: 'unspecified (::)' }
  if (value === 1n) return { class: 'private', kind: 'loopback (::1)' }
  // Addresses that carry an IPv4 address are judged by it, since a translator or tunnel on
  // the way may deliver them to that IPv4 address: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
  // (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d, RFC 7915), NAT64 (64:ff9b::/96, RFC 6052),
  // local-use NAT64 (64:ff9b:1::/48, RFC 8215), Teredo (2001::/32, RFC 4380) and 6to4
  // (2002::/16, RFC 3056).
  if (inV6(value, 0xffffn << 32n, 96) || value >> 32n === 0n) return classifyV4(v4FromBits(value))
  if (inV6(value, 0xffff_0000n << 32n, 96)) return classifyV4(v4FromBits(value))
  if (inV6(value, 0x0064_ff9bn << 96n, 96)) return classifyV4(v4FromBits(value))
  if (inV6(value, 0x0064_ff9b_0001n << 80n, 48)) {
    // A /96 inside it keeps the IPv4 address in the last 32 bits. Other prefix lengths place it
    // elsewhere (RFC 6052 §2.2; a /48 puts it in bits 48–63 and 72–87): judged by the /48
    // layout, and never better than private (the translator is the operator's own).
    if (((value >> 32n) & 0xffff_ffff_ffffn) === 0n) return classifyV4(v4FromBits(value))
    const split = (((value >> 64n) & 0xffffn) << 16n) | ((value >> 40n) & 0xffffn)
    return stricter(classifyV4(v4FromBits(split)), { class: 'private', kind: 'local-use NAT64 (64:ff9b:1::/48)' })
  }
  // Teredo: the client's IPv4 address is the last 32 bits, each inverted.
  if (inV6(value, 0x2001_0000n << 96n, 32)) return classifyV4(v4FromBits(value ^ 0xffff_ffffn))
  if (inV6(value, 0x2002n << 112n, 16)) return classifyV4(v4FromBits(value >> 80n))
  if (inV6(value, 0xfe80n << 112n, 10)) return { class: 'forbidden', kind: 'link-local (fe80::/10)' }
  if (inV6(value, 0xff00n << 112n, 8)) return { class: 'forbidden', kind: 'multicast' }
  if (inV6(value, 0xfc00n << 112n, 7)) return { class: 'private', kind: 'unique-local (fc00::/7)' }
  if (inV6(value, 0xfec0n << 112n, 10)) return { class: 'private', kind: 'site-local (fec0::/10)' }
  if (inV6(value, 0x2001_0db8n << 96n, 32)) return { class: 'private', kind: 'documentation (2001:db8::/32)' }
  if (inV6(value, 0x0100n << 112n, 64)) return { class: 'private', kind: 'discard-only (100::/64)' }
  return { class: 'public', kind: 'public' }
}

/** What kind of address this is; throws on something that is not an IP address. */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const family = isIP(bare.split('%')[0])
  if (family === 4) return classifyV4(bare)
  if (family === 6) return classifyV6(bare)
  throw new OutboundUrlError(`"${address}" is not an IP address`)
}

/**
 * Throws OutboundUrlError when the policy refuses connecting to this address. For a literal
 * address (the user wrote it) the message says what kind it is; for a name it does not say
 * what the name resolved to, so refusals cannot be used to map the internal network's DNS.
 */
export function assertAddressAllowed(address: string, policy: Pick<OutboundPolicy, 'allowPrivate' | 'caller'>, host = address): void {
  const verdict = classifyAddress(address)
  if (verdict.class === 'public' || (verdict.class === 'private' && policy.allowPrivate)) return
  const caller = policy.caller ?? WEBHOOKS
  if (host !== address) {
    const allowed = policy.allowPrivate
      ? 'public and private addresses are allowed, link-local and cloud metadata addresses never'
      : `only public addresses are allowed (private ones with ${caller.setting}=true; link-local and cloud metadata addresses never)`
    throw new OutboundUrlError(`${host} is refused: it resolves to an address ${caller.what} may not reach; ${allowed}`)
  }
  if (verdict.class === 'forbidden') throw new OutboundUrlError(`${host} is refused: ${address} is ${verdict.kind}, which ${caller.what} may never reach`)
  throw new OutboundUrlError(`${host} is refused: ${address} is ${verdict.kind}; set ${caller.setting}=true to allow private addresses`)
}

/** The URL's host as http.request sees it: brackets off IPv6 literals, lower case, no trailing dot. */
export function urlHost(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  return host.toLowerCase().replace(/\.$/, '')
}

export function assertHostName(host: string, caller: OutboundCaller = WEBHOOKS): void {
  if (METADATA_HOSTS.has(host)) throw new OutboundUrlError(`${host} is refused: it is a cloud metadata endpoint, which ${caller.what} may never reach`)
}

/** Parses and checks the URL's form: http or https, a host, no credentials. */
export function parseOutboundUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundUrlError('url must be an absolute http:// or https:// URL, e.g. "https://example.com/hooks/beacon"')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundUrlError(`url must use http or https, not ${url.protocol.replace(':', '')}`)
  if (!url.hostname) throw new OutboundUrlError('url must name a host')
  if (url.username || url.password) throw new OutboundUrlError('url must not contain credentials (user:password@); receivers authenticate deliveries by their signature')
  return url
}

const RESOLVE_TIMEOUT_MS = 5000

/**
 * The check when a URL is saved: its form, then its host, a literal address directly, a
 * name by looking it up (every address it resolves to must be allowed).
 */
export async function assertOutboundUrl(raw: string, policy: OutboundPolicy): Promise<URL> {
  const url = parseOutboundUrl(raw)
  const host = urlHost(url)
  assertHostName(host, policy.caller)
  if (isIP(host)) {
    assertAddressAllowed(host, policy)
    return url
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OutboundUrlError(`${host} could not be resolved within ${RESOLVE_TIMEOUT_MS / 1000} s; check the host name`)), RESOLVE_TIMEOUT_MS)
  })
  try {
    const addresses = await Promise.race([(policy.resolver ?? systemResolver)(host), timeout]).catch((error: unknown) => {
      if (error instanceof OutboundUrlError) throw error
      throw new OutboundUrlError(`${host} could not be resolved (${error instanceof Error && 'code' in error ? String(error.code) : 'DNS error'}); check the host name`)
    })
    if (addresses.length === 0) throw new OutboundUrlError(`${host} resolves to no address; check the host name`)
    for (const { address } of addresses) assertAddressAllowed(address, policy, host)
    return url
  } finally {
    clearTimeout(timer)
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for http(s).request / net.connect that resolves with `policy.resolver` and
 * refuses the connection when any address the name resolves to is not allowed, so the
 * address checked is the address connected to.
 */
export function guardedLookup(policy: OutboundPolicy): (hostname: string, options: LookupOptions | LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void {
  const resolver = policy.resolver ?? systemResolver
  return (hostname, options, callback) => {
    const host = hostname.toLowerCase().replace(/\.$/, '')
    const family = typeof options === 'object' ? options.family : undefined
    const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0
    resolver(host)
      .then((all) => {
        assertHostName(host, policy.caller)
        for (const { address } of all) assertAddressAllowed(address, policy, host)
        const addresses = wanted ? all.filter((entry) => entry.family === wanted) : all
        if (addresses.length === 0) throw Object.assign(new Error(`${host} has no IPv${wanted || ''} address`), { code: 'ENOTFOUND' })
        if (typeof options === 'object' && options.all) callback(null, addresses)
        else callback(null, addresses[0].address, addresses[0].family)
      })
      .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''))
  }
}
