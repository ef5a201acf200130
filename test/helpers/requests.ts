import type { LightMyRequestResponse } from 'fastify'
import { waitForJob, type TestContext } from './test-app.js'

export function post(ctx: TestContext, url: string, key: string, body: unknown, method: 'POST' | 'PATCH' = 'POST'): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method, url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) })
}

export async function createBrand(ctx: TestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await post(ctx, '/api/v1/brands', key, body)
  if (response.statusCode !== 201) throw new Error(`brand: ${response.statusCode} ${response.body}`)
  return response.json().data.id
}

export async function createPrompt(ctx: TestContext, key: string, text: string, tags: string[] = []): Promise<string> {
  const response = await post(ctx, '/api/v1/prompts', key, { text, tags })
  if (response.statusCode !== 201) throw new Error(`prompt: ${response.statusCode} ${response.body}`)
  return response.json().data.id
}

export async function ingest(ctx: TestContext, key: string, responses: unknown[]): Promise<{ accepted: number; duplicates: number }> {
  const response = await post(ctx, '/api/v1/ingest/responses', key, { responses })
  if (response.statusCode !== 200) throw new Error(`ingest: ${response.statusCode} ${response.body}`)
  return response.json().data
}

/** A write's answer, after the background job it queued (if any) has finished; needs a context with jobsWorker: true. */
export async function settled(ctx: TestContext, workspaceId: string, response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
  const job = response.statusCode < 300 ? (response.json().job as { id: string } | undefined) : undefined
  if (job) {
    const done = await waitForJob(ctx, workspaceId, job.id)
    if (done.state !== 'succeeded') throw new Error(`job ${job.id} ended ${done.state}: ${JSON.stringify(done.error)}`)
  }
  return response
}
