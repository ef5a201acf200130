// COPY ... TO STDOUT read straight off the connection's socket, its records ended with CRLF
// as the CSV writer ends them (copy-export.ts).
//
// The protocol makes the CRLF cheap: a backend sends each row of a COPY as one CopyData
// message ("messages sent from the backend will always correspond to single data rows",
// PostgreSQL's protocol, 55.2.6), so a record ends at the last byte of each message, and LFs
// inside quoted cells never need finding. pg-copy-streams, which this replaces for exports,
// made a Buffer per row, joined each socket read's rows into a new buffer, and the CR
// insertion then searched that buffer for every quote and LF and copied it again: 1.0-1.5 s
// of the server's CPU per year's file. Here each socket read is rewritten in place, a row
// at a time, with no object and no buffer per row or per read.
//
// Taking the socket from pg is done as pg-copy-streams does it (it is the Submittable
// protocol's only way to stream): pg's 'data' listener is removed while the COPY runs, and
// what follows CopyDone (CommandComplete, ReadyForQuery) or an ErrorResponse is handed back
// to it, so pg finishes the query and reports errors as it would.
import { Readable } from 'node:stream'
import type pg from 'pg'
import { copyReads } from './young-garbage.js'

const COPY_DATA = 0x64 // 'd'
const COPY_DONE = 0x63 // 'c'
const COPY_OUT_RESPONSE = 0x48 // 'H'
// Messages the backend may send in the middle of a COPY; they carry nothing for the file.
const NOTICE_RESPONSE = 0x4e // 'N'
const PARAMETER_STATUS = 0x53 // 'S'
const NOTIFICATION_RESPONSE = 0x41 // 'A'
const LF = 0x0a
const CR = 0x0d

export interface CopyOutChunk {
  /** the rows' bytes in this read, each record ended with CRLF (a part of the read itself) */
  rows: Buffer
  /** the COPY's protocol ended in this read: `rest` (what follows) belongs to pg again */
  ended?: { done: boolean; rest: Buffer }
}

/**
 * Decodes the backend's messages of a COPY TO STDOUT, one socket read at a time (a message
 * or its header may span reads): the CopyData contents with CR added before each row's
 * final LF. Ends at CopyDone (done: true) or at the first message that is not part of the
 * COPY, an ErrorResponse above all (done: false, that message first in `rest`, unread).
 *
 * The rows are written over the read itself, which is this decoder's to change: a new
 * buffer per read was a second 64 KB of ArrayBuffer memory per read, and V8 answers every
 * 64 MB of it with a full collection (a year's file: about 3 s of the main thread's CPU in
 * the collector). Each message's 5-byte header leaves room for its row's CR. Only a row
 * begun in an earlier read has no header here: its LF is written after the next message's
 * code byte has been read, over that byte, or at the start of the next read when this one
 * ends with the row. Every write lands before the next unread byte.
 */
export function createCopyOutDecoder(): (chunk: Buffer) => CopyOutChunk {
  let code = -1 // the message being read; -1 between messages
  let headerBytes = 0 // bytes of its 4-byte length read so far
  let length = 0
  let remaining = 0 // bytes of its content still to come
  let pendingLf = false // the last row's LF, still to write
  let ended = false
  return (chunk) => {
    if (ended) throw new Error('COPY already ended')
    let at = 0 // where the next output byte goes
    let i = 0 // the next unread byte
    const result = (done: boolean | undefined): CopyOutChunk => {
      const rows = chunk.subarray(0, at)
      if (done === undefined) return { rows }
      ended = true
      return { rows, ended: { done, rest: chunk.subarray(i) } }
    }
    while (i < chunk.length) {
      if (code === -1) {
        const next = chunk[i]
        if (next !== COPY_DATA && next !== COPY_DONE && next !== COPY_OUT_RESPONSE && next !== NOTICE_RESPONSE && next !== PARAMETER_STATUS && next !== NOTIFICATION_RESPONSE) {
          // An error (the file is cut short anyway): `rest` starts here, so the last row's LF
          // goes in only if it fits before.
          if (pendingLf && at < i) chunk[at++] = LF
          return result(false)
        }
        code = next
        headerBytes = 0
        length = 0
        i++
        if (pendingLf) {
          chunk[at++] = LF
          pendingLf = false
        }
        if (i + 4 <= chunk.length) {
          length = chunk.readUInt32BE(i)
          headerBytes = 4
          i += 4
        }
      }
      while (headerBytes < 4 && i < chunk.length) {
        length = length * 256 + chunk[i++]
        headerBytes++
      }
      if (headerBytes < 4) break
      if (headerBytes === 4) {
        if (length < 4) throw new Error(`COPY: message ${String.fromCharCode(code)} has an invalid length ${length}`)
        remaining = length - 4
        headerBytes = 5 // content under way
      }
      const n = Math.min(remaining, chunk.length - i)
      if (code === COPY_DATA && n > 0) {
        if (n === remaining) {
          // The row's end: its last byte is the record's LF, which becomes CR and is written again after.
          if (chunk[i + n - 1] !== LF) throw new Error('COPY: a row did not end with a line feed')
          if (at !== i) chunk.copyWithin(at, i, i + n - 1)
          at += n - 1
          chunk[at++] = CR
          pendingLf = true
        } else {
          if (at !== i) chunk.copyWithin(at, i, i + n)
          at += n
        }
      }
      i += n
      remaining -= n
      if (remaining > 0) break
      const finished = code
      code = -1
      if (finished === COPY_DONE) return result(true)
    }
    // The last row's LF, when there is room before the next unread byte (there is none when
    // this read ends with a row begun in an earlier one: the next read starts with it).
    if (pendingLf && at < i) {
      chunk[at++] = LF
      pendingLf = false
    }
    return result(undefined)
  }
}

/**
 * A COPY ... TO STDOUT as a readable stream of CRLF-ended records (a Submittable: pass it to
 * client.query). Errors of the statement arrive through pg as the stream's error.
 */
export class CopyOutStream extends Readable implements pg.Submittable {
  private connection?: pg.Connection
  private pgDataHandler?: (chunk: Buffer) => void
  private readonly decode = createCopyOutDecoder()
  private wanted = false
  private forwarding = false
  private ended = false
  private done = false
  private readonly onReadable = () => this.forward()

  constructor(private readonly text: string) {
    super()
  }

  submit(connection: pg.Connection): void {
    this.connection = connection
    const socket = connection.stream
    const listeners = socket.listeners('data') as ((chunk: Buffer) => void)[]
    if (listeners.length !== 1) throw new Error(`COPY: expected pg's one data listener on the socket, found ${listeners.length}`)
    this.pgDataHandler = listeners[0]
    socket.removeListener('data', this.pgDataHandler)
    socket.pause()
    socket.on('readable', this.onReadable)
    connection.query(this.text)
  }

  override _read(): void {
    this.wanted = true
    this.forward()
  }

  private forward(): void {
    if (this.forwarding || !this.wanted || !this.connection || this.ended) return
    this.forwarding = true
    try {
      const socket = this.connection.stream
      let chunk: Buffer | null
      while (this.wanted && !this.ended && (chunk = socket.read() as Buffer | null) !== null) {
        // Each read is a new buffer, garbage once the client has it (young-garbage.ts).
        copyReads.add(chunk.length)
        const { rows, ended } = this.decode(chunk)
        if (rows.length > 0) this.wanted = this.push(rows)
        if (ended) this.handBack(ended.done, ended.rest)
      }
    } catch (error) {
      // A protocol this cannot read: the connection is lost to pg as well (the caller drops it).
      this.ended = true
      this.destroy(error as Error)
    } finally {
      this.forwarding = false
    }
  }

  /** Gives the socket back to pg with what is left of this read. */
  private handBack(done: boolean, rest: Buffer): void {
    this.ended = true
    this.done = done
    const socket = this.connection!.stream
    socket.removeListener('readable', this.onReadable)
    socket.on('data', this.pgDataHandler!)
    if (done) this.push(null)
    if (rest.length > 0) this.pgDataHandler!(rest)
    // The socket was paused to be read here; adding the listener does not resume it. Resumed
    // on the next tick, after pg's handler has taken `rest` (which may pause it again).
    process.nextTick(() => socket.resume())
  }

  handleError(error: Error): void {
    this.destroy(error)
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    // The query is over in pg's eyes: a COPY that neither finished nor failed is an error.
    if (!this.done && !this.destroyed) this.destroy(new Error('COPY ended without its CopyDone message'))
  }
}
