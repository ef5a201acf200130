// `beacon serve` builds the dashboard once when web/dist is missing (e.g. installed with
// --ignore-scripts, or a checkout where npm install ran before the dashboard existed).
// A failed build is reported and the API starts anyway.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { dashboardAvailable } from './dashboard.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export function ensureDashboardBuilt(log: (message: string) => void): boolean {
  if (dashboardAvailable()) return true
  const vite = `${ROOT}node_modules/vite/bin/vite.js`
  if (!existsSync(vite) || !existsSync(`${ROOT}web/vite.config.ts`)) {
    log('web dashboard not built and its build tools are missing: run npm install; the API works without it')
    return false
  }
  log('building the web dashboard (first start)…')
  const result = spawnSync(process.execPath, [vite, 'build', '--config', `${ROOT}web/vite.config.ts`, '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (result.status !== 0) {
    log(`web dashboard build failed (the API works without it): ${(result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ')}`)
    return false
  }
  return dashboardAvailable()
}
