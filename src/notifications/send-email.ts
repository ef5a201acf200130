// E-mail through SMTP with nodemailer (https://nodemailer.com/smtp/): SMTP_URL names the
// server (smtp://user:pass@host:587 upgrades with STARTTLS, smtps:// is TLS from the start).
// The outcome has the shape of a webhook attempt: the server's reply code as the status.
import nodemailer from 'nodemailer'
import type { PostOutcome } from '../webhooks/post-webhook.js'
import type { RenderedMessage } from '../digest/render-digest.js'

export interface EmailSettings {
  smtpUrl: string
  from: string
  timeoutMs: number
}

/** The first three digits of an SMTP reply ("250 2.0.0 Ok: queued"), or null. */
const replyCode = (reply: unknown): number | null => {
  const match = typeof reply === 'string' ? /^(\d{3})/.exec(reply) : null
  return match ? Number(match[1]) : null
}

export async function sendEmail(settings: EmailSettings, to: string[], message: RenderedMessage): Promise<PostOutcome> {
  const started = performance.now()
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  })
  try {
    const info = await transport.sendMail({ from: settings.from, to, subject: message.subject, text: message.text, html: message.html })
    const rejected = (info.rejected ?? []).map(String)
    const status = replyCode(info.response) ?? 250
    if (rejected.length) return { status, error: `the mail server refused ${rejected.join(', ')}`, durationMs: Math.round(performance.now() - started) }
    return { status, error: null, durationMs: Math.round(performance.now() - started) }
  } catch (error) {
    // nodemailer's errors carry the server's reply code when it answered (responseCode).
    const code = error && typeof error === 'object' && 'responseCode' in error && typeof error.responseCode === 'number' ? error.responseCode : null
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 300) : 'sending failed'
    return { status: code, error: `mail server: ${reason}`, durationMs: Math.round(performance.now() - started) }
  } finally {
    transport.close()
  }
}
