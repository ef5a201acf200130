import { describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/auth/api-keys.js'
import { redactSecrets, redactUrl } from '../../src/http/redact.js'

describe('redactUrl', () => {
  const key = generateApiKey()

  it('replaces a key in the query string, whatever the parameter is called', () => {
    expect(redactUrl(`/api/v1/filters?api_key=${key}`)).toBe('/api/v1/filters?api_key=[redacted]')
    expect(redactUrl(`/api/v1/filters?start_date=2026-01-01&x=${key}&per_page=5`)).toBe('/api/v1/filters?start_date=2026-01-01&x=[redacted]&per_page=5')
    expect(redactUrl(`/api/v1/filters?brand_id=${key}`)).not.toContain(key.slice(4))
  })

  it('replaces percent-encoded keys and keys in the path', () => {
    expect(redactUrl(`/api/v1/brands/${key}`)).toBe('/api/v1/brands/[redacted]')
    const encoded = key.replace('_', '%5F')
    expect(redactUrl(`/x?k=${encoded}`)).toBe('/x?k=[redacted]')
    expect(redactUrl(`/x?k=${encoded.replace('%5F', '%5f')}`)).toBe('/x?k=[redacted]')
  })

  it('replaces the value of secret-sounding parameters even when it is not a Beacon key', () => {
    expect(redactUrl('/x?token=abc&api-key=def&key[]=ghi&a%70i_key=jkl&page=2')).toBe('/x?token=[redacted]&api-key=[redacted]&key[]=[redacted]&a%70i_key=[redacted]&page=2')
  })

  it('leaves ordinary URLs alone', () => {
    for (const url of ['/api/v1/filters', '/api/v1/brands?models=openai,anthropic&page=2', '/x?%zz=1&keyword=bvk', '/x?q=', '/x?flag']) expect(redactUrl(url)).toBe(url)
  })
})

describe('redactSecrets', () => {
  it('replaces every key in a message', () => {
    const [a, b] = [generateApiKey(), generateApiKey()]
    expect(redactSecrets(`brand_id must be a UUID, got "${a}" (and ${b})`)).toBe('brand_id must be a UUID, got "[redacted]" (and [redacted])')
  })
})
