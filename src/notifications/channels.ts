// Notification channels: creating, changing and deleting them (docs/agents-and-notifications.md).
// The target (a Slack incoming-webhook URL is itself a credential: whoever has it can post
// to the channel) is sealed like webhook secrets and never shown again except as a hint:
// the Slack URL's host and last four characters, or the e-mail addresses.
import type { DB } from '../db/database.js'
import { newId } from '../db/ids.js'
import type { NotificationChannelTable } from '../db/schema.js'
import { invalidParameter } from '../core/errors.js'
import type { SecretBox } from '../security/secret-box.js'
import {
  channelTargetContext,
  DEFAULT_DIGEST_SCHEDULE,
  DIGEST_DAYS,
  DIGEST_EVENT,
  MAX_CHANNELS_PER_WORKSPACE,
  MAX_EMAIL_RECIPIENTS,
  type ChannelKind,
  type DigestSchedule,
} from './events.js'

export interface ChannelView {
  id: string
  kind: ChannelKind
  target: string
  events: string[]
  digest_schedule: DigestSchedule | null
  active: boolean
  created_at: Date
}

export const channelColumns = ['id', 'kind', 'target_hint', 'events', 'digest_day', 'digest_hour', 'digest_timezone', 'active', 'created_at'] as const

type ChannelRow = Pick<NotificationChannelTable, 'id' | 'kind' | 'target_hint' | 'events' | 'digest_day' | 'digest_hour' | 'digest_timezone'> & {
  active: boolean
  created_at: Date
}

export function toChannelView(row: ChannelRow): ChannelView {
  return {
    id: row.id,
    kind: row.kind,
    target: row.target_hint,
    events: row.events,
    digest_schedule:
      row.digest_day === null || row.digest_hour === null || row.digest_timezone === null
        ? null
        : { day: DIGEST_DAYS[row.digest_day], hour: row.digest_hour, timezone: row.digest_timezone },
    active: row.active,
    created_at: row.created_at,
  }
}

/** The Slack URL as lists show it: scheme, host and the last four characters. */
export function maskUrl(url: URL): string {
  const whole = url.toString()
  return `${url.protocol}//${url.host}/…${whole.slice(-4)}`
}

// The WHATWG form's rule (HTML "valid e-mail address"): what browsers accept in type=email.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** Addresses separated by commas, semicolons or spaces; each checked, duplicates dropped. */
export function parseEmailTarget(raw: string): string[] {
  const addresses = [...new Set(raw.split(/[\s,;]+/).filter(Boolean))]
  if (addresses.length === 0) throw invalidParameter('target', 'target must hold at least one e-mail address, e.g. "team@example.com" (several: separate them with commas)')
  const bad = addresses.filter((address) => address.length > 254 || !EMAIL.test(address))
  if (bad.length)
    throw invalidParameter(
      'target',
      `Not an e-mail address: ${bad
        .slice(0, 3)
        .map((a) => `"${a.slice(0, 80)}"`)
        .join(', ')}; write addresses as name@example.com, separated by commas`,
    )
  if (addresses.length > MAX_EMAIL_RECIPIENTS) throw invalidParameter('target', `At most ${MAX_EMAIL_RECIPIENTS} addresses per channel; use a mailing list address for more`)
  return addresses
}

/** A schedule as stored; checks the time zone (the API's schema checks day and hour). */
export function scheduleColumns(schedule: DigestSchedule | null): Pick<NotificationChannelTable, 'digest_day' | 'digest_hour' | 'digest_timezone'> {
  if (!schedule) return { digest_day: null, digest_hour: null, digest_timezone: null }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: schedule.timezone })
  } catch {
    throw invalidParameter('digest_schedule', `Unknown time zone "${schedule.timezone.slice(0, 80)}"; use an IANA name such as "UTC", "Europe/Berlin" or "America/New_York"`)
  }
  return { digest_day: DIGEST_DAYS.indexOf(schedule.day), digest_hour: schedule.hour, digest_timezone: schedule.timezone }
}

/** The schedule a channel keeps: the given one, else (subscribed to the digest) the current or the default one; none without the digest. */
export function effectiveSchedule(events: readonly string[], given: DigestSchedule | undefined, current: DigestSchedule | null): DigestSchedule | null {
  if (!events.includes(DIGEST_EVENT)) return null
  return given ?? current ?? DEFAULT_DIGEST_SCHEDULE
}

export async function countChannels(db: DB, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('notification_channel')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export interface ChannelInput {
  kind: ChannelKind
  /** already checked: the Slack URL as parsed, or the addresses */
  target: string
  hint: string
  events: string[]
  schedule: DigestSchedule | null
}

export async function createChannel(db: DB, workspaceId: string, input: ChannelInput, box: SecretBox): Promise<ChannelView> {
  if ((await countChannels(db, workspaceId)) >= MAX_CHANNELS_PER_WORKSPACE)
    throw invalidParameter('kind', `A workspace has at most ${MAX_CHANNELS_PER_WORKSPACE} notification channels; delete one you no longer use first`)
  const id = newId()
  const row = await db
    .insertInto('notification_channel')
    .values({
      workspace_id: workspaceId,
      id,
      kind: input.kind,
      target_sealed: box.seal(input.target, channelTargetContext(workspaceId, id)),
      target_hint: input.hint,
      events: [...new Set(input.events)],
      ...scheduleColumns(input.schedule),
    })
    .returning(channelColumns)
    .executeTakeFirstOrThrow()
  return toChannelView(row)
}

export interface ChannelChanges {
  target?: { value: string; hint: string }
  events?: string[]
  schedule?: DigestSchedule | null
  active?: boolean
}

/** Applies the changes; undefined when the channel is not this workspace's. */
export async function updateChannel(db: DB, workspaceId: string, channelId: string, changes: ChannelChanges, box: SecretBox | undefined): Promise<ChannelView | undefined> {
  const row = await db
    .updateTable('notification_channel')
    .set({
      ...(changes.target && box ? { target_sealed: box.seal(changes.target.value, channelTargetContext(workspaceId, channelId)), target_hint: changes.target.hint } : {}),
      ...(changes.events ? { events: [...new Set(changes.events)] } : {}),
      ...(changes.schedule !== undefined ? scheduleColumns(changes.schedule) : {}),
      ...(changes.active !== undefined ? { active: changes.active } : {}),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', channelId)
    .returning(channelColumns)
    .executeTakeFirst()
  return row && toChannelView(row)
}

/** Deletes the channel with its delivery log; queued attempts find nothing and stop. */
export async function deleteChannel(db: DB, workspaceId: string, channelId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('notification_channel').where('workspace_id', '=', workspaceId).where('id', '=', channelId).returning('id').executeTakeFirst()
  return deleted !== undefined
}
