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

/** Throws a 400 naming `schedule` unless it is a valid 5-field cron expression (minute hour day month weekday). */
export function checkSchedule(schedule: string, timezone: string): string {
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
