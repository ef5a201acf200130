// The `beacon` command. Exit codes: 0 ok, 1 failed while running, 2 bad arguments.
import { Command } from 'commander'
import { registerDataCommands } from './commands/data.js'
import { registerKeyCommands } from './commands/key.js'
import { registerCollectCommands } from './commands/collect.js'
import { registerMcpCommand } from './commands/mcp.js'
import { registerRollupCommands } from './commands/rollups.js'
import { registerSecretsCommands } from './commands/secrets.js'
import { registerServeCommands } from './commands/serve.js'
import { registerWorkspaceCommands } from './commands/workspace.js'
import { registerDigestCommands } from './commands/digest.js'
import { reportFailure } from './output.js'

export function buildProgram(options: { json?: boolean } = {}): Command {
  const program = new Command()
  program.name('beacon').description('Beacon: self-hostable AI brand visibility analytics').showHelpAfterError('(run with --help for usage)').exitOverride()
  // With --json, argument errors are reported once, as JSON, by runCli. Set before the
  // subcommands are added: they copy it.
  if (options.json) program.configureOutput({ outputError: () => undefined, writeErr: () => undefined })
  registerServeCommands(program)
  registerWorkspaceCommands(program)
  registerKeyCommands(program)
  registerDataCommands(program)
  registerRollupCommands(program)
  registerCollectCommands(program)
  registerMcpCommand(program)
  registerSecretsCommands(program)
  registerDigestCommands(program)
  // Subcommands inherit exitOverride so argument errors reach our handler (exit 2).
  const override = (command: Command) => {
    command.exitOverride()
    command.commands.forEach(override)
  }
  override(program)
  return program
}

export async function runCli(argv: string[]): Promise<number> {
  const json = argv.includes('--json')
  try {
    await buildProgram({ json }).parseAsync(argv, { from: 'user' })
    return 0
  } catch (error) {
    return reportFailure(error, json)
  }
}

const code = await runCli(process.argv.slice(2))
// `serve` keeps running; every other command ends here.
if (code !== 0 || !process.argv.slice(2).includes('serve')) process.exitCode = code
