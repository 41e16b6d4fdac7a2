import type { AppConfig } from '../config.js'
import type { Actor } from '../audit/auditTrail.js'
import { CSV_BOM } from '../csv.js'
import { InvalidInputError } from '../errors.js'
import { bearerToken } from '../http/auth.js'
import type { Logger } from '../log.js'
import type { RequestContext } from '../requestContext.js'
import { requestClock } from '../clock.js'
import { openServices } from '../services.js'
import { ExportJobStore, type ExportJob } from '../storage/exportJobStore.js'
import { exportIdSchema, exportRequestSchema } from '../admin/adminSchemas.js'
import { exportStarter } from '../admin/exportStarter.js'
import { settleStalledExport } from '../admin/exportStalls.js'
import {
  createExport,
  exportDownload,
  exportStatus,
  issueExportTicket,
  requireExportTicket,
  runTicketedExport,
} from '../admin/listExports.js'

/**
 * The options of the CSV export endpoints: each file in netlify/functions is
 * `export default defineEndpoint(<endpoint>())` plus its path. All in the ADMIN group; the
 * background run proves itself with an export ticket.
 */

interface Input<Body> {
  req: Request
  context: RequestContext
  config: AppConfig
  log: Logger
  body: Body
  actor: Actor | null
}

function exportServices(input: Input<unknown>, now?: () => number) {
  const services = openServices(input.context, input.config, input.log, {
    actor: input.actor,
    now,
  })
  const repositories = services.repositories
  return {
    services,
    repositories,
    jobs: new ExportJobStore(repositories.store),
    log: input.log,
    now: services.now,
  }
}

/** What the status answer says about a job (no filters: they may hold a searched name). */
function jobAnswer(job: ExportJob) {
  return {
    exportId: job.id,
    list: job.list,
    state: job.state,
    fileName: job.fileName,
    totalRows: job.totalRows,
    writtenRows: job.writtenRows,
    parts: job.parts,
    bytes: job.bytes,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    ...(job.error ? { error: job.error } : {}),
    ...(job.state === 'done'
      ? { downloadPath: `/api/admin/exports/download?exportId=${encodeURIComponent(job.id)}` }
      : {}),
  }
}

/** POST /api/admin/exports `{list, status?, productSlug?, q?}`: creates and starts an export. */
export function createExportEndpoint(options: { acceptWaitMs?: number } = {}) {
  return {
    methods: ['POST'] as const,
    auth: 'admin' as const,
    body: exportRequestSchema,
    handle: async (input: Input<(typeof exportRequestSchema)['_output']>) => {
      const { services, repositories, jobs, log, now } = exportServices(input)
      const start = exportStarter({
        origin: new URL(input.req.url).origin,
        ticketFor: (exportId) => issueExportTicket(exportId, input.config, now()),
        log,
        defer: services.defer,
        acceptWaitMs: options.acceptWaitMs,
      })
      const job = await createExport(input.body, {
        jobs,
        repositories,
        log,
        now,
        actor: input.actor,
        start,
      })
      return { export: jobAnswer(job) }
    },
  }
}

/**
 * POST /api/admin/exports/status `{exportId}`: the job's state and, when done, its download; a
 * run that died is answered (and stored) as failed (exportStalls.ts). `now`: the clock (the
 * wiring's `requestClock`).
 */
export function exportStatusEndpoint(options: { now?: () => number } = {}) {
  return {
    methods: ['POST'] as const,
    auth: 'admin' as const,
    body: exportIdSchema,
    handle: async (input: Input<(typeof exportIdSchema)['_output']>) => {
      const { jobs, log, now } = exportServices(input, options.now)
      const job = await exportStatus(input.body.exportId, jobs)
      return { export: jobAnswer(await settleStalledExport(job, jobs, now(), log)) }
    },
  }
}

/** `filename*` (RFC 6266 / 5987) for a Japanese file name, with an ASCII fallback. */
function contentDisposition(fileName: string): string {
  return `attachment; filename="export.csv"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * GET /api/admin/exports/download?exportId=…[&part=n]: the CSV, streamed part by part, as a
 * file with a Japanese name. `part` downloads one part of a file too large for one answer.
 */
export function exportDownloadEndpoint() {
  return {
    methods: ['GET'] as const,
    auth: 'admin' as const,
    handle: async (input: Input<unknown>) => {
      const query = new URL(input.req.url).searchParams
      const exportId = query.get('exportId')
      if (!exportId) throw new InvalidInputError('exportId is required')
      const partText = query.get('part')
      const part = partText === null ? undefined : Number(partText)
      if (part !== undefined && !(Number.isInteger(part) && part >= 1)) {
        throw new InvalidInputError('part must be a positive integer')
      }
      const { jobs } = exportServices(input)
      const { job, parts } = await exportDownload(exportId, part, jobs)
      const encoder = new TextEncoder()
      let next = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const text = await jobs.readPart(job.id, parts[next])
          if (text === null) {
            controller.error(new Error(`part ${parts[next]} of export ${job.id} is missing`))
            return
          }
          controller.enqueue(encoder.encode(parts[next] === 1 ? CSV_BOM + text : text))
          next += 1
          if (next === parts.length) controller.close()
        },
      })
      return new Response(body, {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': contentDisposition(job.fileName),
          'Cache-Control': 'no-store',
        },
      })
    },
  }
}

/** The background run: admits its ticket, then writes the CSV. `now`: the clock (`requestClock`). */
export function exportRunEndpoint(options: { now?: () => number } = {}) {
  const clock = requestClock(options.now)
  return {
    methods: ['POST'] as const,
    auth: (bearer: string | null, config: AppConfig, log: Logger) =>
      void requireExportTicket(bearer, config, log, clock()),
    body: exportIdSchema,
    handle: async (input: Input<(typeof exportIdSchema)['_output']>) => {
      const { repositories, jobs, log, now } = exportServices(input, clock)
      const ticket = requireExportTicket(bearerToken(input.req), input.config, log, now())
      const job = await runTicketedExport(ticket, input.body.exportId, {
        jobs,
        repositories,
        log,
        now,
      })
      return { state: job.state }
    },
  }
}
