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
})
