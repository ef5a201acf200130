// Webhooks and notification channels (docs/agents-and-notifications.md): where Beacon tells
// a team what happened. A webhook's signing secret is shown once; a channel's Slack URL is
// masked after saving. Each has a test send and a delivery log with retry times.
import { useState, type FormEvent } from 'react'
import type { ApiBody, ApiData, Webhook } from '../lib/api'
import { formatDateTime } from '../lib/format'
import { useApi } from '../lib/session'
import { Badge, QueryView, Section } from '../components/ui'
import { SecretOnce, useAction } from '../components/settings-kit'
import { DeliveryLog, EVENT_LABELS } from '../components/delivery-log'

type WebhookEvent = ApiBody<'/webhooks', 'post'>['events'][number]
type ChannelBody = ApiBody<'/notifications', 'post'>
type ChannelEvent = ChannelBody['events'][number]
type Channel = ApiData<'/notifications'>['channels'][number]
type Day = NonNullable<ChannelBody['digest_schedule']>['day']

const WEBHOOK_EVENTS: WebhookEvent[] = ['collection.run.completed', 'collection.run.failed', 'visibility.changed']
const CHANNEL_EVENTS: ChannelEvent[] = [...WEBHOOK_EVENTS, 'digest.weekly']
const DAYS: Day[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

function EventChoices<E extends string>({ events, name, defaults }: { events: E[]; name: string; defaults: E[] }) {
  return (
    <fieldset className="inline-form">
      <legend>Send when</legend>
      {events.map((e) => (
        <label key={e} className="check">
          <input type="checkbox" name={name} value={e} defaultChecked={defaults.includes(e)} /> {EVENT_LABELS[e] ?? e}
        </label>
      ))}
    </fieldset>
  )
}

const chosen = <E extends string>(data: FormData, name: string, allowed: E[]): E[] => data.getAll(name).filter((v): v is E => allowed.includes(v as E))

export function WebhookSettings() {
  const list = useApi<{ webhooks: Webhook[] }>('/webhooks')
  const { run, status } = useAction()
  const [secret, setSecret] = useState<string | null>(null)
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const result = await run<{ secret: string }>(
      'POST',
      '/webhooks',
      { url: String(data.get('url') ?? '').trim(), events: chosen(data, 'events', WEBHOOK_EVENTS) },
      'add the webhook',
      'Webhook added.',
    )
    if (result) {
      setSecret(result.data.secret)
      form.reset()
    }
  }
  return (
    <>
      {status}
      {secret && <SecretOnce label="Signing secret of the new webhook." value={secret} onDone={() => setSecret(null)} testId="webhook-secret" />}
      <Section title="Webhooks">
        <p className="hint">
          Beacon POSTs each event to your address, signed per the Standard Webhooks spec with the secret shown once when you add it. Failed sends are retried for 24 hours.
        </p>
        <QueryView query={list}>
          {(data) =>
            data.webhooks.length === 0 ? (
              <p className="state empty">No webhooks yet.</p>
            ) : (
              <ul className="edit-list" data-testid="webhook-list">
                {data.webhooks.map((w) => (
                  <SubscriptionRow
                    key={w.id}
                    title={w.url}
                    events={w.events}
                    active={w.active}
                    created={w.created_at}
                    base={`/webhooks/${w.id}`}
                    run={run}
                    noun="webhook"
                    testId="webhook-deliveries"
                  />
                ))}
              </ul>
            )
          }
        </QueryView>
      </Section>
      <Section title="Add a webhook">
        <form className="inline-form" onSubmit={(e) => void add(e)} aria-label="Add a webhook">
          <label className="grow">
            Address (URL)
            <input name="url" type="url" required placeholder="https://example.com/beacon-events" maxLength={2000} />
          </label>
          <EventChoices events={WEBHOOK_EVENTS} name="events" defaults={WEBHOOK_EVENTS} />
          <button type="submit">Add webhook</button>
        </form>
      </Section>
    </>
  )
}

export function NotificationSettings() {
  const list = useApi<{ channels: Channel[] }>('/notifications')
  const { run, status } = useAction()
  const [kind, setKind] = useState<'slack' | 'email'>('slack')
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const events = chosen(data, 'events', CHANNEL_EVENTS)
    const body: ChannelBody = { kind, target: String(data.get('target') ?? '').trim(), events }
    if (events.includes('digest.weekly'))
      body.digest_schedule = {
        day: (DAYS.find((d) => d === data.get('day')) ?? 'monday') as Day,
        hour: Number(data.get('hour') ?? 9),
        timezone: String(data.get('timezone') ?? '').trim() || 'UTC',
      }
    if (await run('POST', '/notifications', body, 'add the channel', kind === 'slack' ? 'Slack channel added.' : 'E-mail recipients added.')) form.reset()
  }
  return (
    <>
      {status}
      <Section title="Notification channels">
        <p className="hint">Slack messages and e-mails for the same events as webhooks, plus a weekly digest: each brand&apos;s visibility with its interval and tested change.</p>
        <QueryView query={list}>
          {(data) =>
            data.channels.length === 0 ? (
              <p className="state empty">No channels yet.</p>
            ) : (
              <ul className="edit-list" data-testid="channel-list">
                {data.channels.map((c) => (
                  <SubscriptionRow
                    key={c.id}
                    title={`${c.kind === 'slack' ? 'Slack' : 'E-mail'}: ${c.target}`}
                    events={c.events}
                    active={c.active}
                    created={c.created_at}
                    base={`/notifications/${c.id}`}
                    run={run}
                    noun="channel"
                    extra={c.digest_schedule ? `digest ${c.digest_schedule.day}s at ${c.digest_schedule.hour}:00 ${c.digest_schedule.timezone}` : undefined}
                    testId="channel-deliveries"
                  />
                ))}
              </ul>
            )
          }
        </QueryView>
      </Section>
      <Section title="Add a channel">
        <form className="inline-form" onSubmit={(e) => void add(e)} aria-label="Add a notification channel">
          <label>
            Kind
            <select name="kind" value={kind} onChange={(e) => setKind(e.target.value === 'email' ? 'email' : 'slack')}>
              <option value="slack">Slack</option>
              <option value="email">E-mail</option>
            </select>
          </label>
          <label className="grow">
            {kind === 'slack' ? 'Slack incoming-webhook URL' : 'E-mail addresses (comma-separated)'}
            <input
              name="target"
              key={kind}
              type={kind === 'slack' ? 'url' : 'text'}
              required
              maxLength={4000}
              placeholder={kind === 'slack' ? 'https://hooks.slack.com/services/…' : 'marketing@example.com, ceo@example.com'}
            />
          </label>
          <EventChoices events={CHANNEL_EVENTS} name="events" defaults={['visibility.changed', 'collection.run.failed', 'digest.weekly']} />
          <fieldset className="inline-form">
            <legend>Weekly digest</legend>
            <label>
              Day
              <select name="day" defaultValue="monday">
                {DAYS.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Hour
              <input name="hour" type="number" min={0} max={23} defaultValue={9} />
            </label>
            <label>
              Time zone
              <input name="timezone" defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'} />
            </label>
          </fieldset>
          <button type="submit">Add channel</button>
        </form>
      </Section>
    </>
  )
}

function SubscriptionRow({
  title,
  events,
  active,
  created,
  base,
  run,
  noun,
  extra,
  testId,
}: {
  title: string
  events: string[]
  active: boolean
  created: string
  base: string
  run: ReturnType<typeof useAction>['run']
  noun: string
  extra?: string
  testId: string
}) {
  const [open, setOpen] = useState(false)
  return (
    <li data-subscription={title}>
      <div className="inline-form">
        <strong className="wrap">{title}</strong>
        {!active && <Badge tone="muted">paused</Badge>}
        <span className="muted">
          {events.map((e) => EVENT_LABELS[e] ?? e).join(' · ')}
          {extra ? ` · ${extra}` : ''} · added {formatDateTime(created)}
        </span>
        <button
          type="button"
          onClick={() => {
            setOpen(true)
            void run('POST', `${base}/test`, {}, 'send a test', 'Test queued: its result appears in the log below.')
          }}
        >
          Send test
        </button>
        <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>
          Delivery log
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm(`Delete this ${noun}? Pending retries stop.`) && void run('DELETE', base, undefined, `delete the ${noun}`, `The ${noun} was deleted.`)}
        >
          Delete
        </button>
      </div>
      {open && <DeliveryLog path={`${base}/deliveries`} testId={testId} />}
    </li>
  )
}
