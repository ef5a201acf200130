// Requests without a valid key, limited per client address BEFORE the key is hashed and
// looked up (docs/agents-and-notifications.md, docs/security.md). The per-key limiter
// cannot do this: it needs the key's identity, which costs the lookup a flood of bad keys
// must not get.
//
// Only failures count (missing, malformed, unknown, revoked or expired keys: the 401s), in
// the same store as the per-key limiter: shared through Redis when REDIS_URL is set,
// per process otherwise. Requests with a good key add nothing and wait for nothing: the
// check before the lookup is one Map read in this process. An address over the limit is
// remembered here until its window ends, so its next requests get 429 at once; with
// several instances, each learns it from its own next failure (one lookup each).
//
// Clients behind the same address as a flood (an office NAT, a proxy without TRUST_PROXY)
// keep working if they used their key recently: keys that authenticated are remembered by
// their last characters (too few to authenticate with; a guess only earns the ordinary
// lookup, which still decides) and let past a blocked address.
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { AppError } from '../core/errors.js'
import { createFallbackLimiterStore } from '../http/limiter-store.js'

const WINDOW_MS = 60_000
/** addresses remembered as blocked, and keys remembered as good, per process */
const MAX_ENTRIES = 10_000
const GOOD_KEY_TTL_MS = 15 * 60_000
/** characters of a good key kept to recognise it: 10 random ones plus the 6 of its checksum */
const KEY_TAIL = 16

export interface AuthFailureLimiterOptions {
  /** failed requests one address may make per minute */
  max: number
  redis?: Redis
  log: FastifyBaseLogger
  now?: () => number
}

/** A Map used as a bounded cache: the oldest entry goes first when it is full. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key)
  map.set(key, value)
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as K)
}

export class AuthFailureLimiter {
  readonly max: number
  readonly #store: { incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number, max?: number): void }
  readonly #blocked = new Map<string, number>()
  readonly #goodKeys = new Map<string, number>()
  readonly #now: () => number

  constructor(options: AuthFailureLimiterOptions) {
    this.max = options.max
    const Store = createFallbackLimiterStore(options.redis, options.log, 'beacon-auth-fail-')
    this.#store = new Store({})
    this.#now = options.now ?? Date.now
  }

  /**
   * Before the key is hashed: a 429 for an address over its limit, unless this key
   * authenticated recently. Costs one Map read for everyone else.
   */
  check(ip: string, key: string | undefined): void {
    const until = this.#blocked.get(ip)
    if (until === undefined) return
    const now = this.#now()
    if (until <= now) {
      this.#blocked.delete(ip)
      return
    }
    if (key !== undefined && (this.#goodKeys.get(key.slice(-KEY_TAIL)) ?? 0) > now) return
    const seconds = Math.max(1, Math.ceil((until - now) / 1000))
    throw new AppError(
      429,
      'rate_limited',
      `Too many requests without a valid API key from this address (limit ${this.max} per minute); retry in ${seconds} s with a valid key in "Authorization: Bearer <API_KEY>"`,
      { headers: { 'Retry-After': seconds, 'X-RateLimit-Limit': this.max, 'X-RateLimit-Remaining': 0, 'X-RateLimit-Reset': seconds } },
    )
  }

  /** After a 401: counts it for the address, and blocks the address once it is over the limit. */
  async failed(ip: string, key: string | undefined): Promise<void> {
    if (key !== undefined) this.#goodKeys.delete(key.slice(-KEY_TAIL))
    const counted = await new Promise<{ current: number; ttl: number } | undefined>((resolve) =>
      this.#store.incr(ip, (error, result) => resolve(error ? undefined : result), WINDOW_MS, this.max),
    )
    if (counted && counted.current >= this.max) remember(this.#blocked, ip, this.#now() + Math.max(1000, counted.ttl))
  }

  /** After a key authenticated: remembered, so a block on its address does not stop it. */
  succeeded(key: string): void {
    remember(this.#goodKeys, key.slice(-KEY_TAIL), this.#now() + GOOD_KEY_TTL_MS)
  }
}
