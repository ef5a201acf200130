// The weekly digest's content (docs/agents-and-notifications.md): what one e-mail or Slack
// message says about a workspace's last seven days. Built by build-digest.ts, rendered by
// render-digest.ts; kept as this JSON in the delivery log, so a retry sends the same.
import type { PeriodChange } from '../analysis/statistics.js'

export interface DigestBrand {
  id: string
  name: string
  is_primary: boolean
  /** 0–100, as /dashboard shows it */
  visibility_score: number
  /** Wilson 95% interval, 0–100; null without responses */
  visibility_ci: { low: number; high: number } | null
  /** the sample: responses in the period */
  responses: number
  previous_visibility_score: number
  /** against the previous seven days: two-proportion z-test */
  visibility_test: PeriodChange
  /** 0–100: the brand's mentions among all active brands' mentions */
  share_of_voice: number
  mention_count: number
}

export interface DigestSource {
  domain: string
  /** responses citing it in the period */
  citations: number
}

export interface DigestRunHealth {
  runs: number
  succeeded: number
  failed: number
  /** answers asked for by the period's runs, and how they ended */
  answers_succeeded: number
  answers_failed: number
  last_run_at: string | null
}

export interface Digest {
  workspace: { id: string; name: string }
  period: { start: string; end: string }
  previous_period: { start: string; end: string }
  /** responses in the period (the sample every rate is measured over) */
  responses: number
  brands: DigestBrand[]
  /** among the period's most cited domains, those not cited in the previous period */
  new_top_sources: DigestSource[]
  run_health: DigestRunHealth
  /** the dashboard over the period (BEACON_PUBLIC_URL); null when the server does not know its address */
  dashboard_url: string | null
}
