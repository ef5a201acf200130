// One typed configuration, read from the environment once. Every knob has a default
// so `npm start` works on a fresh machine; bad values fail fast with a message that
// says which variable to fix.
import { availableParallelism } from 'node:os'
import { DEFAULT_THREAD_HEAP_MB, defaultMatcherCacheMb } from './analysis/memory-limits.js'
import { MIN_SECRET_KEY_LENGTH } from './security/secret-box.js'

export interface Config {
  host: string
  port: number
  /** undefined = embedded PGlite on disk; 'memory://' = in-memory PGlite; postgres://… = server */
  databaseUrl: string | undefined
  /** DATABASE_READ_URLS: streaming replicas of that server; analytics reads and exports go to one that has replayed what the request must see */
  databaseReadUrls: string[]
  dataDir: string
  redisUrl: string | undefined
  logLevel: string
  /** analytics requests per key per minute */
  rateLimitPerMinute: number
  /** export file downloads per workspace per rolling hour */
  exportQuotaPerHour: number
  /** export downloads generated at once on this instance */
  exportConcurrency: number
  /** export downloads generated at once for one workspace on this instance */
  exportConcurrencyPerWorkspace: number
  /** a download whose client reads nothing for this long is cut, ms */
  exportStallMs: number
  /** largest accepted request body, bytes */
  bodyLimitBytes: number
  /** Postgres connection pool size */
  databasePoolSize: number
  /** how long a client may take to send a whole request (headers and body), ms */
  requestTimeoutMs: number
  /** analytics answers kept in memory per instance; 0 turns the cache off */
  responseCacheEntries: number
  /** worker threads that analyse ingested responses; 0 analyses on the main thread */
  analysisThreads: number
  /** MATCHER_CACHE_MB: memory for compiled brand matchers in this process (shared by its analysis threads), MB */
  matcherCacheMb: number
  /** ANALYSIS_THREAD_HEAP_MB: heap limit of each analysis thread, MB; a batch needing more is refused, the thread replaced */
  analysisThreadHeapMb: number
  /** run background jobs (re-analysis) in this process; false: only queue them for another instance */
  jobsWorker: boolean
  /** PostgreSQL schema of the job queue (pg-boss) */
  jobsSchema: string
  /** how often an idle worker looks for new jobs, seconds */
  jobsPollSeconds: number
  /** a running job whose heartbeat is older than this is taken as lost (its process died) and retried, seconds */
  jobsLostAfterSeconds: number
  /** how often pg-boss's maintenance (returning expired tasks of a dead process, archiving) runs, seconds; one instance does it per interval */
  jobsMaintenanceSeconds: number
  /** BEACON_SECRET_KEY: encrypts stored provider keys and webhook secrets (src/security/secret-box.ts); unset = such secrets cannot be stored */
  secretKey: string | undefined
  /** BEACON_SECRET_KEY_PREVIOUS: during a key rotation, opens what the old key sealed until `beacon secrets rekey` re-seals it */
  secretKeyPrevious: string | undefined
  /** MCP_ALLOWED_HOSTS: host names /mcp answers to (Host and Origin); undefined = this server's own names; null = any (check off). Loopback names always pass. */
  mcpAllowedHosts: string[] | null | undefined
  /** AUTH_FAILURES_PER_MINUTE: requests without a valid key one client address may make per minute before it gets 429 without a key lookup */
  authFailuresPerMinute: number
  /** TRUST_PROXY: client addresses come from X-Forwarded-For sent by these proxies (true: any) */
  trustProxy: boolean | string[]
  /** collection: USD a workspace may spend on provider requests per UTC day (estimate checked before each request) */
  collectionDailyBudgetUsd: number
  /** collection: requests in flight at once per provider, per instance */
  collectionConcurrency: number
  /** collection: requests started per minute per provider, per instance */
  collectionRequestsPerMinute: number
  /** collection: answer tasks this instance runs at once, across providers (each also within its provider's caps) */
  collectionWorkers: number
  /** collection: one provider request (including its own web search), ms */
  collectionTimeoutMs: number
  /** collection: attempts per answer (429, 5xx, timeouts, network errors are retried) */
  collectionMaxAttempts: number
  /** collection: a running answer task older than this is presumed lost with its process and run again, seconds */
  collectionTaskExpireSeconds: number
  /** collection: how often each instance that runs jobs looks for due schedules, ms */
  collectionSchedulerMs: number
  /** collection: openai_compatible base_url may be a private or loopback address (a local model server); link-local never */
  collectionAllowPrivate: boolean
  /** OPENAI_COMPATIBLE_ALLOWED_HOSTS: hosts an openai_compatible target without a stored credential may be sent OPENAI_COMPATIBLE_API_KEY */
  openaiCompatibleAllowedHosts: string[]
  /** COLLECTION_MIN_INTERVAL_MINUTES: a target's schedule may fire at most this often */
  collectionMinIntervalMinutes: number
  /** the demo provider's simulated latency, ms */
  demoLatencyMs: number
  /** WEBHOOK_ALLOW_PRIVATE: webhooks may target private, loopback and unique-local addresses (never link-local or cloud metadata) */
  webhookAllowPrivate: boolean
  /** WEBHOOK_TIMEOUT_SECONDS: one delivery attempt's whole request, ms */
  webhookTimeoutMs: number
  /** WEBHOOK_RETRY_SCHEDULE: seconds to wait before each retry after the first attempt; its length is the number of retries */
  webhookRetrySchedule: number[]
  /** SMTP_URL: where e-mail notifications go (smtp://user:pass@host:587, smtps://…:465); unset = no e-mail channels */
  smtpUrl: string | undefined
  /** EMAIL_FROM: the From of notification e-mails */
  emailFrom: string
  /** BEACON_PUBLIC_URL: this server's address as people reach it, for links in notifications; unset = no links */
  publicUrl: string | undefined
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`)
  const value = Number(raw.trim())
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`)
  return value
}

function decimal(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(`${name} must be a number between ${min} and ${max} (e.g. 5 or 2.50), got "${raw}"`)
  const value = Number(raw.trim())
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`)
  return value
}

function jobsSchema(raw: string | undefined): string {
  const value = raw?.trim() || 'pgboss'
  if (!/^[a-z_][a-z0-9_]{0,49}$/.test(value)) throw new ConfigError(`JOBS_SCHEMA must be a lower-case PostgreSQL name (letters, digits, _), got "${raw}"`)
  return value
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['true', '1', 'yes'].includes(raw)) return true
  if (['false', '0', 'no'].includes(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`)
}

// Standard Webhooks' suggested schedule: after the first attempt, 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h, 10 h: 8 attempts over about 27.6 hours, so a receiver down for a day still
// gets the event.
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000]

function secondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  const parts = raw.split(',').map((part) => part.trim())
  if (parts.length > 20 || parts.some((part) => !/^\d+$/.test(part) || Number(part) > 86_400))
    throw new ConfigError(`${name} must be a comma-separated list of at most 20 waits in seconds (each 0 to 86400), e.g. "5,300,1800"; got "${raw}"`)
  return parts.map(Number)
}

/** `host`, `host:port` or `[v6]` → the lower-case host name a URL would give (ports never matter here). */
function hostNames(env: NodeJS.ProcessEnv, name: string, options: { any: boolean } = { any: true }): string[] | null | undefined {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return undefined
  if (raw === '*' && options.any) return null
  return raw.split(',').map((entry) => {
    try {
      const url = new URL(`http://${entry.trim()}`)
      if (url.pathname !== '/' || url.username || !url.hostname) throw new Error('not a host')
      return url.hostname
    } catch {
      throw new ConfigError(
        `${name} must be a comma-separated list of host names (e.g. "beacon.example.com,10.0.0.5")${options.any ? ', or * for any' : ''}; "${entry.trim()}" is not a host name`,
      )
    }
  })
}

function trustProxy(raw: string | undefined): boolean | string[] {
  const value = raw?.trim()
  if (!value || ['false', '0', 'no'].includes(value.toLowerCase())) return false
  if (['true', '1', 'yes'].includes(value.toLowerCase())) return true
  const entries = value.split(',').map((entry) => entry.trim())
  if (entries.some((entry) => !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(entry)))
    throw new ConfigError(`TRUST_PROXY must be true, false, or a comma-separated list of proxy addresses or CIDR ranges (e.g. "127.0.0.1,10.0.0.0/8"); got "${raw}"`)
  return entries
}

// The current key is checked when a secret is first stored or opened (a server that stores
// none needs none); the previous one only makes sense beside it, so it is checked here.
function previousSecretKey(env: NodeJS.ProcessEnv): string | undefined {
  const previous = env.BEACON_SECRET_KEY_PREVIOUS?.trim() || undefined
  if (previous === undefined) return undefined
  if (!env.BEACON_SECRET_KEY?.trim())
    throw new ConfigError(
      'BEACON_SECRET_KEY_PREVIOUS is set but BEACON_SECRET_KEY is not: while rotating, set the new key as BEACON_SECRET_KEY and the old one as BEACON_SECRET_KEY_PREVIOUS',
    )
  if (previous.length < MIN_SECRET_KEY_LENGTH)
    throw new ConfigError(
      `BEACON_SECRET_KEY_PREVIOUS is too short (${previous.length} characters): it must be the old BEACON_SECRET_KEY, at least ${MIN_SECRET_KEY_LENGTH} characters`,
    )
  return previous
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl && !/^(postgres(ql)?:\/\/|memory:\/\/$)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// (a PostgreSQL server) or be memory:// (in-memory PGlite); leave it unset for the embedded database')
  }
  const databaseReadUrls = (env.DATABASE_READ_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean)
  if (databaseReadUrls.some((url) => !/^postgres(ql)?:\/\//.test(url)) || (databaseReadUrls.length > 0 && !databaseUrl?.startsWith('postgres'))) {
    throw new ConfigError(
      'DATABASE_READ_URLS must be a comma-separated list of postgres:// URLs of streaming replicas of the server in DATABASE_URL (which must then be a postgres:// URL too)',
    )
  }
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    databaseUrl,
    databaseReadUrls,
    dataDir: env.BEACON_DATA_DIR?.trim() || './data',
    redisUrl: env.REDIS_URL?.trim() || undefined,
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    exportQuotaPerHour: integer(env, 'EXPORT_QUOTA_PER_HOUR', 10, 1, 100_000),
    exportConcurrency: integer(env, 'EXPORT_CONCURRENCY', 4, 1, 1000),
    exportConcurrencyPerWorkspace: integer(env, 'EXPORT_CONCURRENCY_PER_WORKSPACE', 2, 1, 1000),
    exportStallMs: integer(env, 'EXPORT_STALL_SECONDS', 30, 1, 3600) * 1000,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_MB', 10, 1, 1024) * 1024 * 1024,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    responseCacheEntries: integer(env, 'RESPONSE_CACHE_ENTRIES', 5000, 0, 1_000_000),
    analysisThreads: integer(env, 'ANALYSIS_THREADS', Math.min(availableParallelism(), 4), 0, 64),
    matcherCacheMb: integer(env, 'MATCHER_CACHE_MB', defaultMatcherCacheMb(), 16, 1_048_576),
    analysisThreadHeapMb: integer(env, 'ANALYSIS_THREAD_HEAP_MB', DEFAULT_THREAD_HEAP_MB, 64, 1_048_576),
    jobsWorker: boolean(env, 'JOBS_WORKER', true),
    jobsSchema: jobsSchema(env.JOBS_SCHEMA),
    jobsPollSeconds: integer(env, 'JOBS_POLL_SECONDS', 2, 1, 600),
    jobsLostAfterSeconds: integer(env, 'JOBS_LOST_AFTER_SECONDS', 60, 3, 86_400),
    jobsMaintenanceSeconds: integer(env, 'JOBS_MAINTENANCE_SECONDS', 60, 1, 3600),
    secretKey: env.BEACON_SECRET_KEY?.trim() || undefined,
    secretKeyPrevious: previousSecretKey(env),
    mcpAllowedHosts: hostNames(env, 'MCP_ALLOWED_HOSTS'),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    trustProxy: trustProxy(env.TRUST_PROXY),
    collectionDailyBudgetUsd: decimal(env, 'COLLECTION_DAILY_BUDGET_USD', 10, 0, 1_000_000),
    // Web-search answers take ~20 s: 20 in flight per provider (60 requests/min at that
    // latency, within the default 120) and 80 answer workers (4 providers × 20) let one
    // instance collect 1,000 answers in ~5 minutes (npm run bench:collection, README).
    collectionConcurrency: integer(env, 'COLLECTION_CONCURRENCY', 20, 1, 256),
    collectionRequestsPerMinute: integer(env, 'COLLECTION_REQUESTS_PER_MINUTE', 120, 1, 1_000_000),
    collectionWorkers: integer(env, 'COLLECTION_WORKERS', 80, 1, 256),
    collectionTimeoutMs: integer(env, 'COLLECTION_TIMEOUT_SECONDS', 300, 1, 3600) * 1000,
    collectionMaxAttempts: integer(env, 'COLLECTION_MAX_ATTEMPTS', 4, 1, 20),
    collectionTaskExpireSeconds: integer(env, 'COLLECTION_TASK_EXPIRE_SECONDS', 15 * 60, 5, 86_400),
    demoLatencyMs: integer(env, 'BEACON_DEMO_LATENCY_MS', 300, 0, 60_000),
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    collectionAllowPrivate: boolean(env, 'COLLECTION_ALLOW_PRIVATE', false),
    collectionSchedulerMs: integer(env, 'COLLECTION_SCHEDULER_SECONDS', 30, 1, 3600) * 1000,
    openaiCompatibleAllowedHosts: hostNames(env, 'OPENAI_COMPATIBLE_ALLOWED_HOSTS', { any: false }) ?? [],
    collectionMinIntervalMinutes: integer(env, 'COLLECTION_MIN_INTERVAL_MINUTES', 60, 1, 1440),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 300) * 1000,
    webhookRetrySchedule: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE', DEFAULT_WEBHOOK_RETRY_SCHEDULE),
    smtpUrl: optionalUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    emailFrom: env.EMAIL_FROM?.trim() || 'Beacon <beacon@localhost>',
    publicUrl: optionalUrl(env, 'BEACON_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
  }
}

/** An optional URL setting with one of the given schemes; checked at start-up so a typo is found then, not at the first e-mail. */
function optionalUrl(env: NodeJS.ProcessEnv, name: string, schemes: string[]): string | undefined {
  const raw = env[name]?.trim()
  if (!raw) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL (${schemes.map((s) => `${s}//…`).join(' or ')}), got something else`)
  }
  if (!schemes.includes(url.protocol)) throw new ConfigError(`${name} must start with ${schemes.map((s) => `${s}//`).join(' or ')}, not ${url.protocol}//`)
  return raw
}
