// `beacon secrets rekey`: after BEACON_SECRET_KEY changed (the old one kept as
// BEACON_SECRET_KEY_PREVIOUS), re-seal every stored secret under the new key, so the old one
// can be dropped. Safe to re-run and to interrupt (src/security/sealed-secrets.ts).
import type { Command } from 'commander'
import { loadConfig } from '../../config.js'
import { SecretBox, SecretKeyError } from '../../security/secret-box.js'
import { withDatabase } from '../context.js'
import { createOutput, UsageError } from '../output.js'
import { progressBar } from '../progress-bar.js'

export function registerSecretsCommands(program: Command): void {
  program
    .command('secrets')
    .description('manage the stored secrets (provider credentials, webhook secrets)')
    .command('rekey')
    .description('re-seal every stored secret under BEACON_SECRET_KEY; BEACON_SECRET_KEY_PREVIOUS opens the ones the old key sealed')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      // Loaded here, not at start-up, so `beacon --help` stays quick.
      const { describeUnreadable, rekeyStoredSecrets } = await import('../../security/sealed-secrets.js')
      const started = Date.now()
      // A missing or short key is said before the database is opened.
      try {
        SecretBox.fromKeys(loadConfig())
      } catch (error) {
        throw error instanceof SecretKeyError ? new UsageError(error.message) : error
      }
      const result = await withDatabase(async (database, config) => {
        if (!out.json && config.secretKey && !config.secretKeyPrevious) out.info('BEACON_SECRET_KEY_PREVIOUS is not set: only secrets already under BEACON_SECRET_KEY will open')
        let bar: ReturnType<typeof progressBar> | undefined
        try {
          return await rekeyStoredSecrets(database, config, {
            onProgress: ({ done, total }) => {
              bar ??= progressBar(out, total, 'secrets')
              bar.update(done)
            },
          })
        } catch (error) {
          // A database role that cannot read every workspace: a setup to change, not a failure.
          throw error instanceof SecretKeyError ? new UsageError(error.message) : error
        } finally {
          bar?.stop()
        }
      })
      const seconds = Math.round((Date.now() - started) / 100) / 10
      out.result({ ...result, seconds }, [
        ...result.columns.map(
          (c) =>
            `${c.kind}s: ${c.total} stored, ${c.resealed} re-sealed, ${c.already_current} already under the current key${c.unreadable.length ? `, ${c.unreadable.length} unreadable` : ''}`,
        ),
        `Re-sealed ${result.resealed} secret${result.resealed === 1 ? '' : 's'} in ${seconds} s${result.unreadable.length === 0 ? '; every stored secret now opens with BEACON_SECRET_KEY alone' : ''}`,
      ])
      if (result.unreadable.length > 0)
        throw new Error(
          `${result.unreadable.length} stored secret(s) open with neither key and were left as they are: ${describeUnreadable(result.unreadable)}. ` +
            'Set the key they were stored with as BEACON_SECRET_KEY_PREVIOUS and run this again.',
        )
    })
}
