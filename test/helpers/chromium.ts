// A real browser for the dashboard's end-to-end tests and benchmark: Debian's chromium
// driven by playwright-core, headless, with a fresh profile and no background traffic.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
export const chromiumAvailable = (): boolean => existsSync(CHROMIUM)

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'beacon-chromium-'))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport })
  return {
    context,
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
