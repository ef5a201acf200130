// `beacon digest preview`: the weekly digest of a workspace as its channels would get it
// now (docs/agents-and-notifications.md): the plain-text part, or the HTML e-mail with
// --html (save it to a file and open it in a browser or mail client), or the data with --json.
import type { Command } from 'commander'
import { buildDigest } from '../../digest/build-digest.js'
import { renderDigest } from '../../digest/render-digest.js'
import { requireWorkspace, withDatabase } from '../context.js'
import { createOutput } from '../output.js'

export function registerDigestCommands(program: Command): void {
  const digest = program.command('digest').description('the weekly digest that notification channels receive')

  digest
    .command('preview')
    .description("print a workspace's weekly digest as it would be sent now (the last seven whole UTC days): plain text, or HTML with --html")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--html', 'print the HTML e-mail instead of the plain text')
    .option('--json', 'print the digest data')
    .action(async (options: { workspace: string; html?: boolean; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const data = await withDatabase(async (database, config) => {
        const workspace = await requireWorkspace(database, options.workspace)
        return buildDigest(database.db, workspace.id, { publicUrl: config.publicUrl })
      })
      const rendered = renderDigest(data)
      out.result(data, options.html ? rendered.html : `Subject: ${rendered.subject}\n\n${rendered.text.trimEnd()}`)
    })
}
