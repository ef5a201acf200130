import { describe, expect, it } from 'vitest'
import { KEY_LENGTH, KEY_PREFIX, displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, keyChecksum } from '../../src/auth/api-keys.js'

describe('API key format', () => {
  it('generates bvk_ + 30 base62 + 6-char checksum', () => {
    const key = generateApiKey()
    expect(key).toMatch(/^bvk_[0-9A-Za-z]{36}$/)
    expect(key).toHaveLength(KEY_LENGTH)
    expect(key.slice(-6)).toBe(keyChecksum(key.slice(4, 34)))
    expect(isWellFormedApiKey(key)).toBe(true)
  })

  it('generates different keys', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey))
    expect(keys.size).toBe(200)
  })

  it('rejects a key with any one character changed', () => {
    const key = generateApiKey()
    for (let i = KEY_PREFIX.length; i < key.length; i++) {
      const replacement = key[i] === 'a' ? 'b' : 'a'
      const changed = key.slice(0, i) + replacement + key.slice(i + 1)
      expect(isWellFormedApiKey(changed), `position ${i}`).toBe(false)
    }
  })

  it('rejects wrong prefix, wrong length and foreign characters', () => {
    const key = generateApiKey()
    expect(isWellFormedApiKey('bvx_' + key.slice(4))).toBe(false)
    expect(isWellFormedApiKey(key + 'a')).toBe(false)
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false)
    expect(isWellFormedApiKey(key.slice(0, 10) + '-' + key.slice(11))).toBe(false)
    expect(isWellFormedApiKey('')).toBe(false)
  })

  it('checksum is six base62 digits, left-padded', () => {
    for (const sample of ['', 'a', 'x'.repeat(30), '0'.repeat(30)]) expect(keyChecksum(sample)).toMatch(/^[0-9A-Za-z]{6}$/)
  })

  it('hashes to SHA-256 hex and shows only a short prefix', () => {
    const key = generateApiKey()
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/)
    expect(hashApiKey(key)).not.toContain(key.slice(4))
    expect(displayPrefix(key)).toBe(key.slice(0, 10))
  })
})
