import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { notFound } from '../../../../core/errors.js'
import { pageRequest, paginationWithNav } from '../../../../core/pagination.js'
import { createTarget, deleteTarget, targetView, updateTarget } from '../../../../collection/targets.js'
import { assertCollectionBaseUrl } from '../../../../collection/adapter-resolver.js'
import { invalidParameter } from '../../../../core/errors.js'
import { OutboundUrlError } from '../../../../security/outbound-url.js'
import { deleteCredential, putCredential } from '../../../../collection/credentials.js'
import { cancelRun, createRun } from '../../../../collection/runs.js'
import { listTargets } from '../../../../queries/collection/list-targets.js'
import { getTarget } from '../../../../queries/collection/get-target.js'
import { listCredentials } from '../../../../queries/collection/list-credentials.js'
import { getRun } from '../../../../queries/collection/get-run.js'
import { listRuns } from '../../../../queries/collection/list-runs.js'
import { listNonAnswers } from '../../../../queries/collection/list-non-answers.js'
import { getNonAnswer } from '../../../../queries/collection/get-non-answer.js'
import {
  cancelRunRoute,
  createRunRoute,
  createTargetRoute,
  deleteCredentialRoute,
  deleteTargetRoute,
  getNonAnswerRoute,
  getRunRoute,
  getTargetRoute,
  listCredentialsRoute,
  listNonAnswersRoute,
  listRunsRoute,
  NON_ANSWERS_PER_PAGE,
  listTargetsRoute,
  putCredentialRoute,
  RUNS_PER_PAGE,
  updateTargetRoute,
} from './schemas.js'

export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A base_url is a user-given address Beacon will call: refused like a webhook URL.
  const checkBaseUrl = async (baseUrl: string | null | undefined) => {
    if (!baseUrl?.trim()) return
    await assertCollectionBaseUrl(baseUrl.trim(), { allowPrivate: app.config.collectionAllowPrivate }).catch((error: unknown) => {
      throw error instanceof OutboundUrlError ? invalidParameter('base_url', error.message) : error
    })
  }

  app.get('/collection/targets', listTargetsRoute, async (request) => {
    const now = new Date()
    return { success: true as const, data: (await listTargets(request.db, request.auth.workspaceId)).map((row) => targetView(row, now)) }
  })

  app.get('/collection/targets/:target_id', getTargetRoute, async (request) => {
    const row = await getTarget(request.db, request.auth.workspaceId, request.params.target_id)
    if (!row) throw notFound('Collection target')
    return { success: true as const, data: targetView(row) }
  })

  app.post('/collection/targets', createTargetRoute, async (request, reply) => {
    if (request.body.api === 'openai_compatible') await checkBaseUrl(request.body.base_url)
    const target = await createTarget(request.db, request.auth.workspaceId, request.body, new Date(), { minIntervalMinutes: app.config.collectionMinIntervalMinutes })
    reply.status(201)
    return { success: true as const, data: target, message: `Added ${target.kind === 'aio' ? `AI-overview target (${target.serp})` : `target ${target.provider}/${target.model}`}` }
  })

  app.patch('/collection/targets/:target_id', updateTargetRoute, async (request) => {
    if (request.body.base_url) {
      const current = await getTarget(request.db, request.auth.workspaceId, request.params.target_id)
      if (current && (request.body.api ?? current.api) === 'openai_compatible') await checkBaseUrl(request.body.base_url)
    }
    const target = await updateTarget(request.db, request.auth.workspaceId, request.params.target_id, request.body, new Date(), {
      minIntervalMinutes: app.config.collectionMinIntervalMinutes,
    })
    return { success: true as const, data: target, message: 'Updated the target' }
  })

  app.delete('/collection/targets/:target_id', deleteTargetRoute, async (request) => {
    if (!(await deleteTarget(request.db, request.auth.workspaceId, request.params.target_id))) throw notFound('Collection target')
    return { success: true as const, data: { id: request.params.target_id, deleted: true as const }, message: 'Deleted the target' }
  })

  app.get('/collection/credentials', listCredentialsRoute, async (request) => ({
    success: true as const,
    data: await listCredentials(request.db, request.auth.workspaceId),
  }))

  app.put('/collection/credentials/:name', putCredentialRoute, async (request) => {
    const credential = await putCredential(request.db, request.auth.workspaceId, request.params.name, request.body, app.config.secretKey)
    return { success: true as const, data: credential, message: `Stored credential "${credential.name}" (…${credential.last_four})` }
  })

  app.delete('/collection/credentials/:name', deleteCredentialRoute, async (request) => {
    if (!(await deleteCredential(request.db, request.auth.workspaceId, request.params.name))) throw notFound('Credential')
    return { success: true as const, data: { name: request.params.name, deleted: true as const }, message: `Deleted credential "${request.params.name}"` }
  })

  app.post('/collection/runs', createRunRoute, async (request, reply) => {
    const { workspaceId } = request.auth
    const id = await createRun(request.db, workspaceId, request.body ?? {}, app.jobs.tasks)
    const run = await getRun(request.db, workspaceId, id)
    if (!run) throw notFound('Collection run')
    reply.status(202)
    return { success: true as const, data: run, message: `Run ${id} queued; follow it with GET /api/v1/collection/runs/${id}` }
  })

  app.get('/collection/runs', listRunsRoute, async (request) => {
    const page = pageRequest(request.query, RUNS_PER_PAGE)
    const { runs, totalItems } = await listRuns(request.db, request.auth.workspaceId, page)
    return { success: true as const, data: { runs, pagination: paginationWithNav(page, totalItems) } }
  })

  app.get('/collection/runs/:run_id', getRunRoute, async (request) => {
    const run = await getRun(request.db, request.auth.workspaceId, request.params.run_id)
    if (!run) throw notFound('Collection run')
    return { success: true as const, data: run }
  })

  app.get('/collection/runs/:run_id/non-answers', listNonAnswersRoute, async (request) => {
    const page = pageRequest(request.query, NON_ANSWERS_PER_PAGE)
    const found = await listNonAnswers(request.db, request.auth.workspaceId, request.params.run_id, { outcome: request.query.outcome }, page)
    if (!found) throw notFound('Collection run')
    return { success: true as const, data: { non_answers: found.nonAnswers, pagination: paginationWithNav(page, found.totalItems) } }
  })

  app.get('/collection/runs/:run_id/non-answers/:non_answer_id', getNonAnswerRoute, async (request) => {
    const nonAnswer = await getNonAnswer(request.db, request.auth.workspaceId, request.params.run_id, request.params.non_answer_id)
    if (!nonAnswer) throw notFound('Non-answer')
    return { success: true as const, data: nonAnswer }
  })

  app.post('/collection/runs/:run_id/cancel', cancelRunRoute, async (request) => {
    const { workspaceId } = request.auth
    if (!(await cancelRun(request.db, workspaceId, request.params.run_id))) throw notFound('Collection run')
    const run = await getRun(request.db, workspaceId, request.params.run_id)
    if (!run) throw notFound('Collection run')
    return { success: true as const, data: run, message: run.state === 'cancelled' ? 'Run cancelled; answers not yet asked are skipped' : `Run already ${run.state}` }
  })
}
