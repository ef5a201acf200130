import { afterEach, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { holderIsRunning, lockDataDir, parseLockFile, processStartTicks } from '../../src/db/data-dir-lock.js'

const linux = existsSync('/proc/self/stat')

describe('data directory lock', () => {
  const dirs: string[] = []
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-lock-'))
    dirs.push(dir)
    return dir
  }
  const sleeper = async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' })
    children.push(child)
    await new Promise((resolve) => child.once('spawn', resolve))
    return child.pid as number
  }

  it('records the holder and refuses a second taker while it runs', async () => {
    const dir = freshDir()
    const pid = await sleeper()
    writeFileSync(join(dir, 'beacon.lock'), JSON.stringify({ pid, bootId: readBootId(), startTicks: processStartTicks(pid) }))
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${pid}`))
  })

  it('takes over a lock whose pid now belongs to another process (a reused pid)', async () => {
    if (!linux) return
    const dir = freshDir()
    const pid = await sleeper()
    const realStart = processStartTicks(pid)
    expect(realStart).toMatch(/^\d+$/)
    // Same pid and boot, but the process that wrote the lock started at another time.
    writeFileSync(join(dir, 'beacon.lock'), JSON.stringify({ pid, bootId: readBootId(), startTicks: String(Number(realStart) - 1) }))
    const release = lockDataDir(dir)
    expect(parseLockFile(readFileSync(join(dir, 'beacon.lock'), 'utf8'))?.pid).toBe(process.pid)
    release()
    expect(existsSync(join(dir, 'beacon.lock'))).toBe(false)
  })

  it('takes over a lock from before a reboot, and one of a process that is gone', async () => {
    const dir = freshDir()
    const pid = await sleeper()
    writeFileSync(join(dir, 'beacon.lock'), JSON.stringify({ pid, bootId: 'another-boot', startTicks: processStartTicks(pid) }))
    if (linux) lockDataDir(dir)()
    const child = children.pop() as ChildProcess
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    writeFileSync(join(dir, 'beacon.lock'), String(child.pid)) // the older plain-pid format
    lockDataDir(dir)()
  })

  it('parses both formats and rejects garbage', () => {
    expect(parseLockFile('1234\n')).toEqual({ pid: 1234 })
    expect(parseLockFile('{"pid":5,"bootId":"b","startTicks":"77"}')).toEqual({ pid: 5, bootId: 'b', startTicks: '77' })
    expect(parseLockFile('{"pid":"5"}')).toBeNull()
    expect(parseLockFile('garbage')).toBeNull()
  })

  it('decides liveness from pid, boot and start time', () => {
    const current = { bootId: 'b1', startTicksOf: () => '100', isAlive: () => true }
    expect(holderIsRunning({ pid: 9, bootId: 'b1', startTicks: '100' }, current)).toBe(true)
    expect(holderIsRunning({ pid: 9, bootId: 'b0', startTicks: '100' }, current)).toBe(false)
    expect(holderIsRunning({ pid: 9, bootId: 'b1', startTicks: '99' }, current)).toBe(false)
    expect(holderIsRunning({ pid: 9 }, current)).toBe(true)
    expect(holderIsRunning({ pid: 9 }, { ...current, isAlive: () => false })).toBe(false)
  })
})

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    return undefined
  }
}
