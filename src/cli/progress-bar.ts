// Progress for long CLI commands (imports, re-analysis, rollup rebuilds, secret re-keying, the demo).
import cliProgress from 'cli-progress'
import type { Output } from './output.js'

/** A progress bar on stderr with rows/s and ETA; silent under --json or without a terminal. */
export function progressBar(out: Output, total: number, unit: string) {
  if (out.json || !process.stderr.isTTY) {
    let lastLog = 0
    return {
      update(done: number) {
        if (out.json) return
        const now = Date.now()
        if (now - lastLog > 2000 || done === total) {
          lastLog = now
          out.info(`${done}/${total} ${unit}`)
        }
      },
      stop() {},
    }
  }
  const started = Date.now()
  const bar = new cliProgress.SingleBar(
    { format: `{bar} {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  bar.start(total, 0, { rate: 0 })
  return {
    update(done: number) {
      const seconds = (Date.now() - started) / 1000
      bar.update(done, { rate: seconds > 0 ? Math.round(done / seconds) : 0 })
    },
    stop: () => bar.stop(),
  }
}
