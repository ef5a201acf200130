// The per-address failure limiter on its own, with a clock the test moves: an address is
// blocked at the limit until its window ends; a good key it saw is let past the block until
// it is forgotten or fails.
import { describe, expect, it } from 'vitest'
import type { FastifyBaseLogger } from 'fastify'
import { AuthFailureLimiter } from '../../src/auth/auth-failure-limiter.js'
import { generateApiKey } from '../../src/auth/api-keys.js'

// Without Redis the store never logs; the limiter only needs the logger's shape.
const silent = { warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger

describe('AuthFailureLimiter', () => {
  const setup = () => {
    let now = 1_000_000
    const limiter = new AuthFailureLimiter({ max: 3, log: silent, now: () => now })
    return { limiter, advance: (ms: number) => (now += ms) }
  }

  it('blocks an address at the limit until its window ends, and no other address', async () => {
    const { limiter, advance } = setup()
    for (let i = 0; i < 2; i++) {
      await limiter.failed('10.0.0.1', undefined)
      expect(() => limiter.check('10.0.0.1', undefined)).not.toThrow()
    }
    await limiter.failed('10.0.0.1', 'bvk_x')
    expect(() => limiter.check('10.0.0.1', generateApiKey())).toThrow(/Too many requests without a valid API key/)
    expect(() => limiter.check('10.0.0.2', undefined)).not.toThrow()
    advance(59_000)
    expect(() => limiter.check('10.0.0.1', undefined)).toThrow(/retry in [12] s/)
    advance(2_000)
    expect(() => limiter.check('10.0.0.1', undefined)).not.toThrow()
  })

  it('lets a key that authenticated recently past a block, until it is forgotten or fails', async () => {
    const { limiter, advance } = setup()
    const good = generateApiKey()
    const other = generateApiKey()
    limiter.succeeded(good)
    limiter.succeeded(other)
    for (let i = 0; i < 3; i++) await limiter.failed('10.0.0.3', generateApiKey())
    expect(() => limiter.check('10.0.0.3', good)).not.toThrow()
    // Only its last 16 characters are kept: a key sharing them passes the block (the lookup
    // after it still refuses a key that is not the good one); one differing there does not.
    expect(() => limiter.check('10.0.0.3', `bvk_zzzz${good.slice(8)}`)).not.toThrow()
    expect(() => limiter.check('10.0.0.3', `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`)).toThrow()
    // A key that later fails (revoked) is forgotten at once.
    await limiter.failed('10.0.0.4', other)
    expect(() => limiter.check('10.0.0.3', other)).toThrow()
    // Remembered for 15 minutes.
    advance(16 * 60_000)
    for (let i = 0; i < 3; i++) await limiter.failed('10.0.0.3', generateApiKey())
    expect(() => limiter.check('10.0.0.3', good)).toThrow()
  })
})
