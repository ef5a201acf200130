// API errors in words a marketer understands (docs/dashboard.md: everything a team sets up
// is done in the browser). The API's own message is precise but written for developers
// ("body/url must match format \"uri\""); the settings pages lead with what happened and what
// to do, and keep the API's wording as the detail for whoever runs Beacon.
import { ApiError } from './api'

export interface ExplainedError {
  /** what happened and what to do, in plain words */
  summary: string
  /** the API's own message, for support */
  detail: string | null
}

/** Field names the API reports (`param`) as the forms label them. */
const FIELD_LABELS: Record<string, string> = {
  url: 'the address (URL)',
  events: 'the events',
  name: 'the name',
  scopes: 'the permissions',
  api_key: 'the key',
  provider: 'the provider',
  model: 'the model',
  base_url: 'the base URL',
  schedule: 'the schedule',
  timezone: 'the time zone',
  locale: 'the language and country',
  samples: 'the number of samples',
  serp: 'the search API',
  target: 'the destination',
  kind: 'the kind',
  domain: 'the domain',
  text: 'the question',
  expires_at: 'the expiry date',
  credential: 'the stored key',
}

function fieldOf(error: ApiError): string | null {
  const param = error.param?.replace(/^body\./, '').replace(/\[\d+\]/g, '')
  if (!param) return null
  const leaf = param.split('.').pop() ?? param
  return FIELD_LABELS[leaf] ?? leaf.replace(/_/g, ' ')
}

export function explainError(error: unknown, doing = 'do that'): ExplainedError {
  if (!(error instanceof ApiError)) return { summary: `Could not ${doing}. Try again.`, detail: error instanceof Error ? error.message : null }
  const detail = error.message
  const field = fieldOf(error)
  switch (true) {
    case error.code === 'network_error':
      return { summary: `Could not ${doing}: Beacon could not be reached. Check your connection, then try again.`, detail: null }
    case error.status === 401:
      return { summary: 'Your sign-in key is no longer accepted (revoked or expired). Sign in again with a current key.', detail }
    case error.code === 'insufficient_scope':
      return { summary: `Your key is not allowed to ${doing}. Ask whoever manages Beacon for a key with the permission it needs.`, detail }
    case error.code === 'plan_required':
      return { summary: `Your workspace's plan does not include this. Ask whoever manages Beacon to upgrade the workspace.`, detail }
    case error.status === 404:
      return { summary: 'This item no longer exists; someone may have removed it. Reload the page to see the current list.', detail }
    case error.status === 409:
      return { summary: `Could not ${doing}: something with the same name already exists. Pick another name.`, detail }
    case error.status === 413:
      return { summary: `Could not ${doing}: what you entered is too long. Shorten it and try again.`, detail }
    case error.status === 429:
      return { summary: 'Too many requests in a short time. Wait a minute, then try again.', detail }
    case error.status === 400 || error.status === 422:
      return {
        summary: field ? `Please check ${field}: ${plainValidation(detail)}` : `Please check the form: ${plainValidation(detail)}`,
        detail,
      }
    case error.status === 503:
      return { summary: `This is not switched on for this Beacon server yet, so Beacon could not ${doing}. Ask whoever runs Beacon to set it up.`, detail }
    default:
      return { summary: `Something went wrong on the server, so Beacon could not ${doing}. Try again; if it keeps happening, tell whoever runs Beacon.`, detail }
  }
}

/** The API's validation wording, made plain: `body/url must match format "uri"` → "it must be a web address (https://…)". */
export function plainValidation(message: string): string {
  if (/format "uri"|absolute http|must be http/i.test(message)) return 'it must be a full web address starting with https://'
  if (/format "email"|e-mail address/i.test(message)) return 'it must be a valid e-mail address'
  if (/format "date-time"/.test(message)) return 'it must be a date and time'
  if (/private|loopback|link-local/i.test(message)) return 'Beacon does not send to internal network addresses; use a public address'
  if (/is required$/.test(message)) return 'it is required'
  if (/must NOT have fewer than 1 (characters|items)/.test(message)) return 'it cannot be empty'
  if (/must NOT have more than/.test(message)) return 'it is too long'
  if (/must be one of:/.test(message)) return `choose one of ${message.split('must be one of:')[1].trim()}`
  // The API's own sentences (e.g. "an answer target needs model, e.g. gpt-4o-mini") already say what to do.
  return message.replace(/^body\/?\S*\s/, '')
}
