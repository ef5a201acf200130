// Migrations are frozen history (docs/rollups.md): one that imports application code changes
// meaning when that code changes. Only kysely may be imported, statically or dynamically.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const DIR = join(import.meta.dirname, '../../src/db/migrations')

/** Every module specifier a source file imports (static, re-export, dynamic, require). */
export function importedModules(source: string): string[] {
  const patterns = [/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*([^)]*?)\s*\)/g, /\brequire\s*\(\s*([^)]*?)\s*\)/g]
  const found: string[] = []
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1].replace(/^['"`]|['"`]$/g, ''))
  return found
}

describe('migrations', () => {
  it('finds every kind of import (the scanner itself)', () => {
    expect(importedModules(`import { sql, type Kysely } from 'kysely'\nconst { f } = await import('../../ingest/rollups.js')`)).toEqual(['kysely', '../../ingest/rollups.js'])
    expect(importedModules(`import 'side-effect'\nexport { x } from "./x.js"\nconst y = require(name)`)).toEqual(['./x.js', 'side-effect', 'name'])
  })

  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'))
  it('exist', () => expect(files.length).toBeGreaterThan(5))
  it.each(files)('%s imports nothing but kysely', (file) => {
    const modules = importedModules(readFileSync(join(DIR, file), 'utf8'))
    expect(modules.filter((m) => m !== 'kysely')).toEqual([])
  })
})
