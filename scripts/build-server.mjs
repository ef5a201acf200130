// Compiles the server and CLI once, at install (docs/architecture.md "Start-up"): every
// src/**/*.ts becomes dist/**/*.js file for file, so each module keeps its place and
// everything found relative to a module (the analysis worker, the data/*.json tables, the
// web/dist dashboard two folders up) is where it was. Not bundled: one file a module keeps
// import.meta.url honest, and esbuild only strips types (`npm run typecheck` checks them).
// Usage: node scripts/build-server.mjs [--outdir DIR]   (default dist/, git-ignored)
// Also writes an empty, migrated embedded database (see below).
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SRC = join(ROOT, 'src')
const outdirArgument = process.argv.indexOf('--outdir')
const OUT = outdirArgument > 0 ? resolve(process.argv[outdirArgument + 1]) : join(ROOT, 'dist')

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
}

const started = Date.now()
const files = filesBelow(SRC)
const sources = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
// A clean output: a module deleted from src/ must not linger in the build.
rmSync(OUT, { recursive: true, force: true })
await build({
  entryPoints: sources.map((file) => join(SRC, file)),
  outbase: SRC,
  outdir: OUT,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
})
// Data read at run time relative to its module (new URL('./data/x.json', import.meta.url)).
for (const file of files.filter((name) => name.endsWith('.json'))) {
  mkdirSync(join(OUT, file, '..'), { recursive: true })
  cpSync(join(SRC, file), join(OUT, file))
}
// A new embedded database starts from this empty, migrated cluster instead of running
// PostgreSQL's initdb inside PGlite (about 6 s of CPU; loading the copy costs about 1.5 s):
// src/db/dialect.ts loads it when the data directory is new. Later migrations apply on top.
// Written by the module just compiled, the one the test suite's global setup runs from src/.
const templateStarted = Date.now()
const { writeEmptyCluster } = await import(pathToFileURL(join(OUT, 'db', 'empty-cluster.js')).href)
await writeEmptyCluster(join(OUT, 'empty-database.tar.gz'))
console.log(`beacon: wrote the empty embedded database in ${Date.now() - templateStarted} ms`)

// bin/beacon.js compares this stamp with the sources' modification times (a dev checkout
// edited after install runs the sources until the next build).
writeFileSync(join(OUT, 'build-info.json'), `${JSON.stringify({ builtAt: new Date().toISOString(), modules: sources.length })}\n`)
console.log(`beacon: compiled ${sources.length} modules to ${relative(ROOT, OUT) || '.'}/ in ${Date.now() - started} ms`)
