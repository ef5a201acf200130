// What each event says in a Slack message (Block Kit) and in an e-mail (subject, plain
// text and HTML) (docs/agents-and-notifications.md). The data is the event's JSON as stored
// in the delivery log; the digest has its own renderer (src/digest/render-digest.ts).
import { digestBlocks, escapeHtml, escapeSlack, renderDigest, type RenderedMessage } from '../digest/render-digest.js'
import type { Digest } from '../digest/digest.js'
import { DIGEST_EVENT, NOTIFICATION_TEST_EVENT } from './events.js'

export interface SlackMessage {
  /** the notification's fallback text (shown in notifications and where blocks cannot be) */
  text: string
  blocks: object[]
}

export interface RenderedNotification {
  email: RenderedMessage
  slack: SlackMessage
}

interface Line {
  title: string
  body: string
  link: string | null
}

const pct = (ratio: number) => `${(100 * ratio).toFixed(1)}%`

function describe(event: string, data: Record<string, unknown>, publicUrl: string | undefined): Line {
  const link = (path: string) => (publicUrl ? `${publicUrl}${path}` : null)
  if (event === NOTIFICATION_TEST_EVENT) return { title: 'Beacon test notification', body: String(data.message ?? 'A test notification from Beacon.'), link: link('/') }
  if (event === 'collection.run.completed' || event === 'collection.run.failed') {
    const run = (data.run ?? {}) as Record<string, unknown>
    const counts = ['succeeded', 'failed', 'skipped'].filter((k) => typeof run[k] === 'number').map((k) => `${String(run[k])} ${k}`)
    return {
      title: event === 'collection.run.completed' ? 'Collection run completed' : 'Collection run failed',
      body: `Run ${String(run.id ?? '')} ended ${String(run.state ?? '')}${counts.length ? `: ${counts.join(', ')} answers` : ''}.`,
      link: link('/#/collection'),
    }
  }
  if (event === 'visibility.changed') {
    const brand = (data.brand ?? {}) as { name?: string }
    const previous = (data.previous ?? {}) as { visibility?: number; responses?: number; start_date?: string; end_date?: string }
    const current = (data.current ?? {}) as { visibility?: number; responses?: number; start_date?: string; end_date?: string }
    const change = (data.change ?? {}) as { delta?: number; p_value?: number }
    const delta = Number(change.delta ?? 0)
    return {
      title: `${brand.name ?? 'A brand'}: visibility ${delta >= 0 ? 'up' : 'down'} ${(100 * Math.abs(delta)).toFixed(1)} points`,
      body:
        `${brand.name ?? 'The brand'} was named in ${pct(Number(current.visibility ?? 0))} of ${current.responses ?? 0} answers (${current.start_date} to ${current.end_date}), ` +
        `against ${pct(Number(previous.visibility ?? 0))} of ${previous.responses ?? 0} before (${previous.start_date} to ${previous.end_date}). ` +
        `The change is significant (p = ${change.p_value ?? '?'}).`,
      link: link('/'),
    }
  }
  return { title: `Beacon: ${event}`, body: JSON.stringify(data).slice(0, 500), link: link('/') }
}

export function renderNotification(event: string, data: unknown, publicUrl: string | undefined): RenderedNotification {
  if (event === DIGEST_EVENT) {
    const digest = data as Digest
    const email = renderDigest(digest)
    return { email, slack: { text: email.subject, blocks: digestBlocks(digest) } }
  }
  const line = describe(event, (data ?? {}) as Record<string, unknown>, publicUrl)
  const text = `${line.body}${line.link ? `\n\nOpen Beacon: ${line.link}` : ''}\n`
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(line.title)}</title></head><body style="margin:0;padding:24px;background:#f5f7fa;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border:1px solid #e4e7eb;border-radius:8px;"><tr><td style="padding:24px;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#1f2933;">` +
    `<h1 style="font-size:18px;line-height:24px;margin:0 0 12px 0;">${escapeHtml(line.title)}</h1><p style="font-size:14px;line-height:20px;margin:0;">${escapeHtml(line.body)}</p>` +
    (line.link ? `<p style="font-size:14px;margin:16px 0 0 0;"><a href="${escapeHtml(line.link)}" style="color:#2f5bea;">Open Beacon</a></p>` : '') +
    `</td></tr></table></body></html>`
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: line.title.slice(0, 150) } },
    { type: 'section', text: { type: 'mrkdwn', text: escapeSlack(line.body).slice(0, 3000) } },
  ]
  if (line.link) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open Beacon' }, url: line.link }] })
  return { email: { subject: line.title, text, html }, slack: { text: line.title, blocks } }
}
