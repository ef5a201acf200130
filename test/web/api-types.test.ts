// The dashboard's API types are generated from /openapi.json (docs/dashboard.md) and CI
// fails when the committed file is stale: this regenerates them in-process and compares.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { API_TYPES_FILE, generateApiTypes } from '../../web/scripts/generate-api-types.js'

describe('web/src/lib/api-types.ts', () => {
  it('is what npm run generate:api-types writes from the current /openapi.json', async () => {
    const expected = await generateApiTypes()
    const committed = readFileSync(API_TYPES_FILE, 'utf8')
    // A plain boolean first, so a stale file fails with the instruction rather than a 6,000-line diff.
    expect(committed === expected, 'web/src/lib/api-types.ts is stale: run npm run generate:api-types and commit it').toBe(true)
    // The generated types carry the server's real shapes, e.g. "" (not null) for an unset domain.
    expect(committed).toContain("'/api/v1/brands/{brand_id}'")
    expect(committed).toMatch(/source_type: 'owned' \| 'competitor'/)
  }, 180_000)
})
