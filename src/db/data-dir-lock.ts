// PGlite is one process's database: a second process opening the same directory would
// corrupt it. A lock file turns that into a clear error. It records the holder's pid and,
// on Linux, the machine's boot id and the process's start time, so a lock left by a dead
// process is recognised as stale even when its pid now belongs to an unrelated process
// (pids are reused, most often after a reboot or in containers where every start is pid 1).
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export interface LockHolder {
  pid: number
  /** /proc/sys/kernel/random/boot_id: changes at every boot */
  bootId?: string
  /** field 22 of /proc/<pid>/stat: the process's start, in clock ticks since boot */
  startTicks?: string
}

export function describeProcess(pid: number): LockHolder {
  const holder: LockHolder = { pid }
  try {
    holder.bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    holder.startTicks = processStartTicks(pid)
  } catch {
    // Not Linux: the pid alone is what can be checked.
  }
  return holder
}

/** Start time of a process from /proc/<pid>/stat; undefined when there is no such process. */
export function processStartTicks(pid: number): string | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields[19] // field 22 overall; fields here start at field 3
}

/** Parses a lock file: today's JSON, or the plain pid that older versions wrote. */
export function parseLockFile(text: string): LockHolder | null {
  const trimmed = text.trim()
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) }
  try {
    const value = JSON.parse(trimmed) as Partial<LockHolder>
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null
    return { pid: value.pid, bootId: typeof value.bootId === 'string' ? value.bootId : undefined, startTicks: typeof value.startTicks === 'string' ? value.startTicks : undefined }
  } catch {
    return null
  }
}

/**
 * Whether the recorded holder is still running: its pid is alive and, where the lock
 * recorded them, the boot and the process start time are the same.
 */
export function holderIsRunning(holder: LockHolder, current: { bootId?: string; startTicksOf(pid: number): string | undefined; isAlive(pid: number): boolean }): boolean {
  if (!current.isAlive(holder.pid)) return false
  if (holder.bootId && current.bootId && holder.bootId !== current.bootId) return false
  if (holder.startTicks) {
    const now = current.startTicksOf(holder.pid)
    if (now !== undefined && now !== holder.startTicks) return false
  }
  return true
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the directory's lock or throws a message naming the holder; returns the release. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'beacon.lock')
  const me = describeProcess(process.pid)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, JSON.stringify(me))
      closeSync(fd)
      let released = false
      return () => {
        if (released) return
        released = true
        rmSync(path, { force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      let holder: LockHolder | null = null
      try {
        holder = parseLockFile(readFileSync(path, 'utf8'))
      } catch {
        // Removed by its holder in between: try again.
      }
      if (holder && holder.pid !== process.pid && holderIsRunning(holder, { bootId: me.bootId, startTicksOf: processStartTicks, isAlive })) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${holder.pid} (probably "beacon serve"). Stop it first, or point both at a PostgreSQL server with DATABASE_URL.`,
          { cause: error },
        )
      }
      rmSync(path, { force: true }) // stale: its process is gone, or the pid now belongs to another
    }
  }
  throw new Error(`could not lock ${path}`)
}
