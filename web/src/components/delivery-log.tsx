// A webhook's or notification channel's delivery log (docs/agents-and-notifications.md):
// each delivery with its state, every attempt's status, and when the next retry is due.
import type { ApiData } from '../lib/api'
import { formatDateTime } from '../lib/format'
import { useApi } from '../lib/session'
import { Badge, QueryView } from './ui'

type Delivery = ApiData<'/webhooks/{webhook_id}/deliveries'>['deliveries'][number]

export const EVENT_LABELS: Record<string, string> = {
  'collection.run.completed': 'A collection run finished',
  'collection.run.failed': 'A collection run failed',
  'visibility.changed': 'A brand’s visibility changed significantly',
  'digest.weekly': 'Weekly digest',
  'webhook.test': 'Test',
  'notification.test': 'Test',
}

const attemptText = (a: Delivery['attempts'][number]) =>
  `#${a.attempt} ${formatDateTime(a.at)}: ${a.status_code !== null ? `answered ${a.status_code}` : 'no answer'}${a.error ? ` (${a.error})` : ''}`

/**
 * Polled every 2 s while a delivery is pending, so a test send's outcome appears on its own, and
 * every 10 s otherwise while open (a send queued just after a read would otherwise never show).
 */
export function DeliveryLog({ path, testId }: { path: string; testId?: string }) {
  const log = useApi<{ deliveries: Delivery[] }>(path, new URLSearchParams({ per_page: '20' }), {
    refetchInterval: (data) => (data?.deliveries.some((d) => d.state === 'pending') ? 2000 : 10_000),
  })
  return (
    <QueryView query={log}>
      {(data) =>
        data.deliveries.length === 0 ? (
          <p className="state empty">Nothing sent yet. Use “Send test” to check the connection.</p>
        ) : (
          <div className="table-wrap">
            <table data-testid={testId}>
              <caption className="sr-only">Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">State</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Next retry</th>
                </tr>
              </thead>
              <tbody>
                {data.deliveries.map((d) => (
                  <tr key={d.id} data-state={d.state}>
                    <td data-col="event">
                      {EVENT_LABELS[d.event] ?? d.event}
                      <span className="muted"> · {formatDateTime(d.created_at)}</span>
                    </td>
                    <td data-col="state">
                      <Badge tone={d.state === 'delivered' ? 'succeeded' : d.state === 'failed' ? 'failed' : 'running'}>{d.state}</Badge>
                    </td>
                    <td data-col="status">{d.last_status !== null ? d.last_status : d.last_error ? 'no answer' : '–'}</td>
                    <td data-col="attempts">
                      <details>
                        <summary>{d.attempts.length}</summary>
                        <ul className="plain-list">
                          {d.attempts.map((a) => (
                            <li key={a.attempt}>{attemptText(a)}</li>
                          ))}
                        </ul>
                      </details>
                    </td>
                    <td data-col="next_attempt_at">{d.state === 'pending' && d.next_attempt_at ? formatDateTime(d.next_attempt_at) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryView>
  )
}
