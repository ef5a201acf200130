// DATABASE_READ_URLS: a list of replica URLs of a PostgreSQL primary, checked at start-up.
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'

describe('DATABASE_READ_URLS', () => {
  it('is a comma-separated list of postgres:// URLs, empty when unset', () => {
    expect(loadConfig({}).databaseReadUrls).toEqual([])
    const config = loadConfig({ DATABASE_URL: 'postgres://p@primary/beacon', DATABASE_READ_URLS: ' postgres://r@one/beacon, postgresql://r@two/beacon ,' })
    expect(config.databaseReadUrls).toEqual(['postgres://r@one/beacon', 'postgresql://r@two/beacon'])
  })

  it('refuses anything else, and replicas of an embedded database', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p@primary/beacon', DATABASE_READ_URLS: 'mysql://r@one/beacon' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATABASE_READ_URLS: 'postgres://r@one/beacon' })).toThrow(/DATABASE_URL \(which must then be a postgres/)
  })
})
