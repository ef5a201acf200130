#!/usr/bin/env node
// Runs the build that `npm install` compiled from src/ (dist/, docs/architecture.md
// "Start-up"): no TypeScript compiler on the way to a command. A checkout whose build is
// missing, or older than a file under src/ (edited or switched since the last build), runs
// the sources through tsx instead, says so on stderr (unless --json), and names the command that
// brings the fast start back. An installed copy without src/ always runs its build.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const built = join(root, 'dist', 'cli', 'main.js')
const stamp = join(root, 'dist', 'build-info.json')
const sources = join(root, 'src')

/** Why the build cannot be used, or undefined when it can. */
function buildProblem() {
  if (!existsSync(built) || !existsSync(stamp)) return 'there is no build in dist/'
  if (!existsSync(sources)) return undefined
  const builtAt = statSync(stamp).mtimeMs
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|json)$/.test(entry.name)) continue
    const path = join(entry.parentPath, entry.name)
    if (statSync(path).mtimeMs > builtAt) return `${path.slice(root.length)} changed after the last build`
  }
  return undefined
}

const problem = buildProblem()
if (problem === undefined) {
  await import(built)
} else {
  // Not under --json: there stderr carries at most one JSON error document.
  if (!process.argv.includes('--json')) process.stderr.write(`beacon: running from the TypeScript sources, which starts slower (${problem}); run "npm run build" to compile them\n`)
  const { register } = await import('tsx/esm/api')
  register()
  await import('../src/cli/main.ts')
}
