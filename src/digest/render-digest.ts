// The digest as people read it (docs/agents-and-notifications.md): a plain-text part, an
// HTML e-mail built for mail clients (nested tables, inline styles, no CSS classes, no
// scripts or external images: Outlook and Gmail drop <style> blocks and layout CSS), and a
// Slack Block Kit message. Every rate shows its interval, and a change says whether it is
// significant or within noise; only a significant change is coloured.
import type { Digest, DigestBrand } from './digest.js'

export interface RenderedMessage {
  subject: string
  text: string
  html: string
}

export const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** Slack mrkdwn: only &, < and > need escaping (https://api.slack.com/reference/surfaces/formatting#escaping). */
export const escapeSlack = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const score = (value: number) => `${value.toFixed(1)}%`
const interval = (brand: DigestBrand) => (brand.visibility_ci ? `${brand.visibility_ci.low.toFixed(1)}–${brand.visibility_ci.high.toFixed(1)}` : 'no answers')
const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)}`

/** "significant (p = 0.003)", "within noise (p = 0.82)" or "too few answers to tell". */
export function changeVerdict(test: DigestBrand['visibility_test']): string {
  if (test.significant === null) return test.p_value === null ? 'no answers to compare' : 'too few answers to tell'
  const p = test.p_value === null ? '' : test.p_value < 0.001 ? ' (p < 0.001)' : ` (p = ${test.p_value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '')})`
  return `${test.significant ? 'significant' : 'within noise'}${p}`
}

export function digestSubject(digest: Digest): string {
  const primary = digest.brands.find((b) => b.is_primary) ?? digest.brands[0]
  const headline = primary
    ? `: ${primary.name} ${score(primary.visibility_score)} (${signed(primary.visibility_test.delta)} pts, ${changeVerdict(primary.visibility_test).split(' (')[0]})`
    : ''
  return `Beacon weekly digest for ${digest.workspace.name}, ${digest.period.start} to ${digest.period.end}${headline}`
}

export function digestText(digest: Digest): string {
  const lines: string[] = []
  lines.push(`Beacon weekly digest: ${digest.workspace.name}`)
  lines.push(`${digest.period.start} to ${digest.period.end}, compared with ${digest.previous_period.start} to ${digest.previous_period.end}; ${digest.responses} answers.`)
  lines.push('')
  lines.push('Visibility (share of answers naming the brand; 95% interval) and share of voice')
  if (digest.brands.length === 0) lines.push('  No active brands yet.')
  for (const brand of digest.brands) {
    lines.push(`  ${brand.name}${brand.is_primary ? ' (your brand)' : ''}: ${score(brand.visibility_score)} [${interval(brand)}], was ${score(brand.previous_visibility_score)}`)
    lines.push(
      `    change ${signed(brand.visibility_test.delta)} pts: ${changeVerdict(brand.visibility_test)}; share of voice ${score(brand.share_of_voice)}; ${brand.mention_count} mentions`,
    )
  }
  lines.push('')
  lines.push('New among the most cited sources')
  if (digest.new_top_sources.length === 0) lines.push('  None: the most cited sources were cited the week before too.')
  for (const source of digest.new_top_sources) lines.push(`  ${source.domain}: cited by ${source.citations} answer${source.citations === 1 ? '' : 's'}`)
  lines.push('')
  const health = digest.run_health
  lines.push('Collection runs')
  lines.push(
    health.runs === 0
      ? '  No collection runs in this period.'
      : `  ${health.runs} run${health.runs === 1 ? '' : 's'}: ${health.succeeded} succeeded, ${health.failed} failed; ${health.answers_succeeded} answers collected, ${health.answers_failed} failed.`,
  )
  if (digest.dashboard_url) {
    lines.push('')
    lines.push(`Open the dashboard: ${digest.dashboard_url}`)
  }
  return `${lines.join('\n')}\n`
}

const FONT = "font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
const cell = `${FONT}font-size:14px;line-height:20px;color:#1f2933;padding:8px 10px;border-bottom:1px solid #e4e7eb;`
const head = `${FONT}font-size:12px;line-height:16px;color:#52606d;padding:8px 10px;border-bottom:2px solid #cbd2d9;text-align:left;font-weight:600;`

function changeCell(brand: DigestBrand): string {
  const test = brand.visibility_test
  // Only a significant change gets a colour: noise stays grey.
  const colour = test.significant === true ? (test.delta > 0 ? '#0e7c3a' : '#b42318') : '#52606d'
  return `<td style="${cell}color:${colour};white-space:nowrap;">${escapeHtml(signed(test.delta))} pts<br><span style="font-size:12px;color:#52606d;">${escapeHtml(changeVerdict(test))}</span></td>`
}

export function digestHtml(digest: Digest): string {
  const rows = digest.brands
    .map(
      (brand) =>
        `<tr><td style="${cell}font-weight:${brand.is_primary ? 700 : 400};">${escapeHtml(brand.name)}</td>` +
        `<td style="${cell}white-space:nowrap;">${score(brand.visibility_score)}<br><span style="font-size:12px;color:#52606d;">95%: ${escapeHtml(interval(brand))}</span></td>` +
        changeCell(brand) +
        `<td style="${cell}white-space:nowrap;">${score(brand.share_of_voice)}</td></tr>`,
    )
    .join('')
  const brandTable = digest.brands.length
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">` +
      `<tr><th style="${head}">Brand</th><th style="${head}">Visibility</th><th style="${head}">Change vs previous week</th><th style="${head}">Share of voice</th></tr>${rows}</table>`
    : `<p style="${FONT}font-size:14px;color:#52606d;">No active brands yet.</p>`
  const sources = digest.new_top_sources.length
    ? `<ul style="${FONT}font-size:14px;line-height:22px;color:#1f2933;margin:0;padding-left:20px;">${digest.new_top_sources
        .map((s) => `<li>${escapeHtml(s.domain)}: cited by ${s.citations} answer${s.citations === 1 ? '' : 's'}</li>`)
        .join('')}</ul>`
    : `<p style="${FONT}font-size:14px;color:#52606d;margin:0;">None: the most cited sources were cited the week before too.</p>`
  const health = digest.run_health
  const healthText =
    health.runs === 0
      ? 'No collection runs in this period.'
      : `${health.runs} run${health.runs === 1 ? '' : 's'}: ${health.succeeded} succeeded, ${health.failed} failed; ${health.answers_succeeded} answers collected, ${health.answers_failed} failed.`
  const healthColour = health.failed > 0 || health.answers_failed > 0 ? '#b42318' : '#1f2933'
  // A bulletproof button: a table cell with a background, which every client renders.
  const button = digest.dashboard_url
    ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0 0 0;"><tr><td style="background:#2f5bea;border-radius:6px;">` +
      `<a href="${escapeHtml(digest.dashboard_url)}" style="${FONT}display:inline-block;padding:10px 18px;font-size:14px;font-weight:600;color:#ffffff;text-decoration:none;">Open the dashboard</a></td></tr></table>`
    : ''
  const section = (title: string) => `<h2 style="${FONT}font-size:16px;line-height:22px;color:#1f2933;margin:24px 0 8px 0;">${title}</h2>`
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(digestSubject(digest))}</title></head>` +
    `<body style="margin:0;padding:0;background:#f5f7fa;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f5f7fa;"><tr><td align="center" style="padding:24px 12px;">` +
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:#ffffff;border:1px solid #e4e7eb;border-radius:8px;"><tr><td style="padding:24px;">` +
    `<h1 style="${FONT}font-size:20px;line-height:28px;color:#1f2933;margin:0 0 4px 0;">Weekly digest: ${escapeHtml(digest.workspace.name)}</h1>` +
    `<p style="${FONT}font-size:13px;line-height:18px;color:#52606d;margin:0;">${digest.period.start} to ${digest.period.end}, compared with ${digest.previous_period.start} to ${digest.previous_period.end}; ${digest.responses} answers.</p>` +
    section('Visibility and share of voice') +
    brandTable +
    `<p style="${FONT}font-size:12px;line-height:16px;color:#52606d;margin:8px 0 0 0;">Visibility is the share of answers naming the brand, with its 95% interval. A change is coloured only when it is significant (p &lt; 0.05, at least 30 answers in each week).</p>` +
    section('New among the most cited sources') +
    sources +
    section('Collection runs') +
    `<p style="${FONT}font-size:14px;line-height:20px;color:${healthColour};margin:0;">${escapeHtml(healthText)}</p>` +
    button +
    `</td></tr></table></td></tr></table></body></html>`
  )
}

export function renderDigest(digest: Digest): RenderedMessage {
  return { subject: digestSubject(digest), text: digestText(digest), html: digestHtml(digest) }
}

/** Slack Block Kit blocks (https://api.slack.com/reference/block-kit/blocks): header, one section per brand, sources, runs, a button. */
export function digestBlocks(digest: Digest): object[] {
  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: `Weekly digest: ${digest.workspace.name}`.slice(0, 150) } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: escapeSlack(`${digest.period.start} to ${digest.period.end} vs the week before; ${digest.responses} answers`) }],
    },
  ]
  // A message holds at most 50 blocks; brands beyond 40 are summarised by the dashboard link.
  for (const brand of digest.brands.slice(0, 40)) {
    const mark = brand.visibility_test.significant === true ? (brand.visibility_test.delta > 0 ? ':large_green_circle: ' : ':red_circle: ') : ''
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          `*${escapeSlack(brand.name)}*${brand.is_primary ? ' (your brand)' : ''}: ${score(brand.visibility_score)} (95%: ${interval(brand)}), ` +
          `${mark}${signed(brand.visibility_test.delta)} pts, ${changeVerdict(brand.visibility_test)}; share of voice ${score(brand.share_of_voice)}`,
      },
    })
  }
  const sources = digest.new_top_sources.map((s) => `${escapeSlack(s.domain)} (${s.citations})`).join(', ')
  const health = digest.run_health
  blocks.push({ type: 'divider' })
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text:
        `*New top sources:* ${sources || 'none'}\n` +
        `*Collection runs:* ${health.runs === 0 ? 'none' : `${health.runs} (${health.succeeded} succeeded, ${health.failed} failed; ${health.answers_failed} answers failed)`}`,
    },
  })
  if (digest.dashboard_url) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the dashboard' }, url: digest.dashboard_url }] })
  return blocks
}
