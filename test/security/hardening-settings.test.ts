// The settings of issue 28 as loadConfig reads them: what each accepts, its default, and the
// message for a value it refuses (MCP_ALLOWED_HOSTS is in test/mcp/mcp-guard.test.ts).
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'

const KEY = 'k'.repeat(40)

describe('hardening settings', () => {
  it('BEACON_SECRET_KEY_PREVIOUS needs BEACON_SECRET_KEY beside it and the old key’s length', () => {
    expect(loadConfig({}).secretKeyPrevious).toBeUndefined()
    expect(loadConfig({ BEACON_SECRET_KEY: KEY, BEACON_SECRET_KEY_PREVIOUS: ` ${'p'.repeat(32)} ` }).secretKeyPrevious).toBe('p'.repeat(32))
    expect(() => loadConfig({ BEACON_SECRET_KEY_PREVIOUS: 'p'.repeat(32) })).toThrow(/BEACON_SECRET_KEY_PREVIOUS is set but BEACON_SECRET_KEY is not/)
    expect(() => loadConfig({ BEACON_SECRET_KEY: KEY, BEACON_SECRET_KEY_PREVIOUS: 'short' })).toThrow(ConfigError)
  })

  it('AUTH_FAILURES_PER_MINUTE defaults to 30 and must be a whole number from 1', () => {
    expect(loadConfig({}).authFailuresPerMinute).toBe(30)
    expect(loadConfig({ AUTH_FAILURES_PER_MINUTE: '100' }).authFailuresPerMinute).toBe(100)
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: '0' })).toThrow(/AUTH_FAILURES_PER_MINUTE must be between 1/)
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: 'many' })).toThrow(ConfigError)
  })

  it('TRUST_PROXY is off by default, true, or a list of proxy addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1'])
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example' })).toThrow(/TRUST_PROXY must be true, false, or a comma-separated list/)
  })
})
