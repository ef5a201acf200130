// Schedules of collection targets: a 5-field cron expression read in an IANA time zone.
import cronParser from 'cron-parser'
import { invalidParameter } from '../core/errors.js'

export const DEFAULT_SCHEDULE = '0 6 * * *'
export const DEFAULT_TIMEZONE = 'UTC'

export function checkTimezone(timezone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone
  } catch {
    throw invalidParameter('timezone', `timezone "${timezone.slice(0, 60)}" is not an IANA time zone; use a name such as "UTC", "Europe/Berlin" or "America/New_York"`)
  }
}

/** The default COLLECTION_MIN_INTERVAL_MINUTES: a schedule fires at most hourly (docs/collection.md). */
export const DEFAULT_MIN_INTERVAL_MINUTES = 60

/**
 * The shortest wall-clock time between two firings of a valid 5-field expression, in minutes:
 * the gaps between the day's firing times (minute × hour fields) and the gap across midnight,
 * counted as if the next day fires too (the day fields can only lengthen gaps). Exact up to one
 * day, which is why COLLECTION_MIN_INTERVAL_MINUTES is at most 1440. Walking the firings
 * instead would be exact across daylight-saving changes too, but cron-parser's time-zone
 * arithmetic costs milliseconds per firing; the scheduler enforces the interval in real time.
 */
export function shortestGapMinutes(schedule: string): number {
  const { minute, hour } = cronParser.parseExpression(schedule).fields
  const times = hour.flatMap((h) => minute.map((m) => h * 60 + m)).sort((a, b) => a - b)
  let shortest = times[0] + 1440 - times[times.length - 1]
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, times[i] - times[i - 1])
  return shortest
}

/** Throws a 400 naming `schedule` unless it is a valid 5-field cron expression (minute hour day month weekday) firing at most every `minIntervalMinutes`. */
export function checkSchedule(schedule: string, timezone: string, minIntervalMinutes = DEFAULT_MIN_INTERVAL_MINUTES): string {
  const fields = schedule.trim().split(/\s+/)
  if (fields.length !== 5)
    throw invalidParameter(
      'schedule',
      `schedule must be a cron expression with 5 fields (minute hour day-of-month month day-of-week), e.g. "0 6 * * *" for 06:00 daily; got "${schedule.slice(0, 60)}"`,
    )
  try {
    cronParser.parseExpression(fields.join(' '), { tz: timezone }).next()
  } catch (error) {
    throw invalidParameter('schedule', `schedule "${schedule.slice(0, 60)}" is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`)
  }
  const gap = shortestGapMinutes(fields.join(' '))
  if (gap < minIntervalMinutes)
    throw invalidParameter(
      'schedule',
      `schedule "${fields.join(' ')}" fires ${Math.round(gap)} minute${Math.round(gap) === 1 ? '' : 's'} apart; a target may run at most every ${minIntervalMinutes} minutes ` +
        `(COLLECTION_MIN_INTERVAL_MINUTES). Use e.g. ${minIntervalMinutes <= 60 ? '"0 * * * *" for hourly or ' : ''}"0 6 * * *" for 06:00 daily`,
    )
  return fields.join(' ')
}

/** The latest slot at or before `now` (undefined if the expression never fired). */
export function latestSlot(schedule: string, timezone: string, now: Date): Date | undefined {
  try {
    // cron-parser's prev() is strictly before currentDate: a slot exactly at `now` counts.
    return cronParser
      .parseExpression(schedule, { tz: timezone, currentDate: new Date(now.getTime() + 1) })
      .prev()
      .toDate()
  } catch {
    return undefined
  }
}

export function nextSlot(schedule: string, timezone: string, now: Date): Date | undefined {
  try {
    return cronParser.parseExpression(schedule, { tz: timezone, currentDate: now }).next().toDate()
  } catch {
    return undefined
  }
}
