import { describe, expect, it } from 'vitest'
import { lastFour, SecretBox, SecretKeyError } from '../../src/security/secret-box.js'

const KEY = 'k'.repeat(20) + 'another-32-plus-character-key'

describe('SecretBox', () => {
  it('opens what it sealed, and each seal differs (random IV)', () => {
    const box = SecretBox.fromSecretKey(KEY)
    const a = box.seal('sk-live-123456', 'credential:w:openai')
    const b = box.seal('sk-live-123456', 'credential:w:openai')
    expect(a).not.toBe(b)
    expect(a).not.toContain('sk-live')
    expect(box.open(a, 'credential:w:openai')).toBe('sk-live-123456')
    expect(box.open(b, 'credential:w:openai')).toBe('sk-live-123456')
  })

  it('refuses another key, another context and a tampered ciphertext', () => {
    const sealed = SecretBox.fromSecretKey(KEY).seal('secret', 'ctx')
    expect(() => SecretBox.fromSecretKey(KEY + 'x').open(sealed, 'ctx')).toThrow(/BEACON_SECRET_KEY is not the key/)
    expect(() => SecretBox.fromSecretKey(KEY).open(sealed, 'other')).toThrow(SecretKeyError)
    const parts = sealed.split('.')
    parts[3] = Buffer.from('tampered').toString('base64url')
    expect(() => SecretBox.fromSecretKey(KEY).open(parts.join('.'), 'ctx')).toThrow(SecretKeyError)
    expect(() => SecretBox.fromSecretKey(KEY).open('garbage', 'ctx')).toThrow(/format/)
  })

  it('asks for a key of at least 32 characters', () => {
    expect(() => SecretBox.fromSecretKey(undefined)).toThrow(/BEACON_SECRET_KEY is not set/)
    expect(() => SecretBox.fromSecretKey('   ')).toThrow(/not set/)
    expect(() => SecretBox.fromSecretKey('short')).toThrow(/too short \(5 characters\)/)
  })

  it('shows only the last four characters', () => {
    expect(lastFour('sk-abcdefWXYZ')).toBe('WXYZ')
  })

  it('opens what the previous key sealed while rotating, says which key opened it, and seals under the current key only', () => {
    const OLD = 'o'.repeat(20) + 'the-old-32-plus-character-secret-key'
    const old = SecretBox.fromSecretKey(OLD).seal('whsec_abc', 'webhook:w:1')
    const rotating = SecretBox.fromSecretKey(KEY, OLD)
    expect(rotating.hasPrevious).toBe(true)
    expect(rotating.unseal(old, 'webhook:w:1')).toEqual({ plaintext: 'whsec_abc', sealedWith: 'previous' })
    const resealed = rotating.seal('whsec_abc', 'webhook:w:1')
    expect(rotating.unseal(resealed, 'webhook:w:1')).toEqual({ plaintext: 'whsec_abc', sealedWith: 'current' })
    // What it seals opens with the current key alone, not with the old one.
    expect(SecretBox.fromSecretKey(KEY).open(resealed, 'webhook:w:1')).toBe('whsec_abc')
    expect(() => SecretBox.fromSecretKey(OLD).open(resealed, 'webhook:w:1')).toThrow(SecretKeyError)
    // The previous key does not widen the context binding.
    expect(() => rotating.open(old, 'webhook:w:2')).toThrow(/neither BEACON_SECRET_KEY nor BEACON_SECRET_KEY_PREVIOUS/)
    // Without it, the old secret does not open, and the message says how to rotate.
    expect(() => SecretBox.fromSecretKey(KEY).open(old, 'webhook:w:1')).toThrow(/BEACON_SECRET_KEY_PREVIOUS/)
  })

  it('ignores a previous key equal to the current one and refuses a short one', () => {
    expect(SecretBox.fromSecretKey(KEY, KEY).hasPrevious).toBe(false)
    expect(SecretBox.fromSecretKey(KEY, '  ').hasPrevious).toBe(false)
    expect(() => SecretBox.fromSecretKey(KEY, 'short')).toThrow(/BEACON_SECRET_KEY_PREVIOUS is too short/)
  })
})
