// Store for @fastify/rate-limit: shared through Redis when it answers, in-process when
// it does not. A Redis outage must not take analytics down, and a limit that still holds
// per instance is better than none. The switch is logged once per outage.
import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'
import type { FastifyBaseLogger } from 'fastify'

const require = createRequire(import.meta.url)
// The plugin's own stores (CommonJS, not in its public exports map; stable since v7).
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js')
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js')

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void
interface Store {
  incr(key: string, callback: IncrCallback, timeWindow?: number, max?: number): void
  child(routeOptions: unknown): Store
}

export function createFallbackLimiterStore(redis: Redis | undefined, log: FastifyBaseLogger, nameSpace: string) {
  return class FallbackLimiterStore implements Store {
    private readonly local: Store
    private readonly shared: Store | undefined
    private degraded = false

    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      this.local = new LocalStore(params.continueExceeding, params.exponentialBackoff)
      this.shared = redis ? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace) : undefined
    }

    private fallBack(reason: string): void {
      if (this.degraded) return
      this.degraded = true
      log.warn({ reason }, 'Redis unavailable: request limiter falls back to per-instance counting until it returns')
    }

    // The plugin passes timeWindow and max at run time; its type declarations omit them.
    incr(key: string, callback: IncrCallback, timeWindow?: number, max?: number): void {
      if (!this.shared || !redis) return this.local.incr(key, callback, timeWindow, max)
      if (redis.status !== 'ready') {
        this.fallBack(`connection ${redis.status}`)
        return this.local.incr(key, callback, timeWindow, max)
      }
      this.shared.incr(
        key,
        (error, result) => {
          if (error) {
            this.fallBack(error.message)
            return this.local.incr(key, callback, timeWindow, max)
          }
          if (this.degraded) {
            this.degraded = false
            log.info('Redis is back: request limiter is shared again')
          }
          callback(null, result)
        },
        timeWindow,
        max,
      )
    }

    child(): Store {
      return this
    }
  }
}
