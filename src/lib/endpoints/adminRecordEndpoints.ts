import type { AppConfig } from '../config.js'
import type { Actor } from '../audit/auditTrail.js'
import type { Logger } from '../log.js'
import type { RequestContext } from '../requestContext.js'
import { openServices } from '../services.js'
import type { AdminRecord, AdminResource } from '../admin/adminResources.js'
import {
  archiveListSchema,
  bulkIdsSchema,
  listFiltersSchema,
  statusUpdateSchema,
} from '../admin/adminSchemas.js'
import { listArchivedRecords } from '../admin/archiveListing.js'
import { bulkResponseBody, runBulkAction, type BulkAction } from '../admin/bulkRecords.js'
import { InvalidInputError } from '../errors.js'
import { streamedJsonList } from '../http/streamedJson.js'
import {
  activeListPage,
  activeRecordCount,
  listActiveRecords,
  rebuildingField,
  unreadableField,
} from '../admin/recordLists.js'
import { DEFAULT_LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from '../admin/adminSchemas.js'
import { updateRecordStatus } from '../admin/statusUpdates.js'

/**
 * The options of the admin record endpoints, written once for both resources: each file in
 * netlify/functions is `export default defineEndpoint(<endpoint>(<resource>))` plus its path.
 * Token groups follow §5 and D7. The handlers answer the fields of a success; the wrapper adds
 * `success: true`.
 */

interface AdminInput<Body> {
  context: RequestContext
  config: AppConfig
  log: Logger
  body: Body
  actor: Actor | null
}

/** The services of this request, with its actor (who the audit trail names). */
function servicesFor({ context, config, log, actor }: AdminInput<unknown>) {
  return openServices(context, config, log, { actor })
}

/** The records of `resource` this request works on. */
function repositoryFor<T extends AdminRecord>(
  resource: AdminResource<T>,
  input: AdminInput<unknown>,
) {
  return resource.repository(servicesFor(input).repositories)
}

/** How large a whole (unpaged) active list may be before it answers 400. */
export interface WholeListLimits {
  /** Most records in one whole-list answer. Default: 60,000. */
  maxRecords?: number
  /**
   * Most bytes of one whole-list answer, estimated from a sample of its records; Netlify streams
   * at most 20 MB. Default: 15,000,000.
   */
  maxBytes?: number
}

// why: the estimate is the average of this many records times the count
const SIZE_SAMPLE = 200

/** 400 naming the paging fields: a whole list of `count` records is too large for one answer. */
function tooLargeForOneAnswer(count: number): InvalidInputError {
  return new InvalidInputError(
    `this list has ${count} records, too many for one answer; send pageSize (at most ${MAX_LIST_PAGE_SIZE}) and follow nextCursor`,
  )
}

/** The whole list is larger than one answer may be: 400 naming the paging fields. */
function checkWholeListSize(records: readonly unknown[], limits: Required<WholeListLimits>) {
  const sample = records.slice(0, SIZE_SAMPLE)
  const sampleBytes = sample.reduce<number>(
    (sum, record) => sum + Buffer.byteLength(JSON.stringify(record)) + 1,
    0,
  )
  const estimate = sample.length === 0 ? 0 : (sampleBytes / sample.length) * records.length
  if (records.length > limits.maxRecords || estimate > limits.maxBytes) {
    throw tooLargeForOneAnswer(records.length)
  }
}

/**
 * POST /api/admin-{reservations,notify}-list (§4.1, §4.2, D3). With `pageSize`,
 * `cursor` or `q` one page and its `nextCursor`; without them the spec's whole list, streamed.
 */
export function activeListEndpoint<T extends AdminRecord>(
  resource: AdminResource<T>,
  options: WholeListLimits = {},
) {
  const body = listFiltersSchema(resource.statuses)
  const limits = { maxRecords: 60_000, maxBytes: 15_000_000, ...options }
  return {
    methods: ['POST'] as const,
    auth: 'admin' as const,
    body,
    handle: async (input: AdminInput<(typeof body)['_output']>) => {
      const repository = repositoryFor(resource, input)
      const { pageSize, cursor, q, ...filters } = input.body
      const list = resource.listField
      if (pageSize !== undefined || cursor !== undefined || q !== undefined) {
        const page = await activeListPage(repository, {
          ...filters,
          list,
          q,
          cursor,
          pageSize: pageSize ?? DEFAULT_LIST_PAGE_SIZE,
        })
        return {
          [list]: page.records,
          total: page.total,
          nextCursor: page.nextCursor,
          ...unreadableField(page.unreadable),
          ...rebuildingField(page.rebuilding),
        }
      }
      // why: at 100k records the whole collection's bases are 34 MB of JSON; a list that cannot
      // be answered anyway says so from the index counts, before any of them is read
      if (filters.productSlug === undefined) {
        const count = await activeRecordCount(repository, filters)
        if (count !== null && count > limits.maxRecords) throw tooLargeForOneAnswer(count)
      }
      const whole = await listActiveRecords(repository, { ...filters, list })
      checkWholeListSize(whole.records, limits)
      return streamedJsonList(list, whole.records, {
        ...unreadableField(whole.unreadable),
        ...rebuildingField(whole.rebuilding),
      })
    },
  }
}

/** POST /api/admin-{reservations,notify}-status (§4.4, §4.5, D4, D6). */
export function statusUpdateEndpoint<T extends AdminRecord>(resource: AdminResource<T>) {
  const body = statusUpdateSchema(resource.statuses, { notes: resource.hasNotes })
  return {
    methods: ['POST'] as const,
    auth: 'admin' as const,
    body,
    handle: async (input: AdminInput<(typeof body)['_output']>) => {
      const services = servicesFor(input)
      const record = await updateRecordStatus(
        resource,
        resource.repository(services.repositories),
        input.body,
        { audit: services.audit, now: services.now },
      )
      return { [resource.recordField]: record }
    },
  }
}

/** POST /api/admin/{reservations,notify}/{archive,unarchive,delete} (§4.6, §4.7, D3, D5). */
export function bulkActionEndpoint<T extends AdminRecord>(
  resource: AdminResource<T>,
  action: BulkAction,
) {
  return {
    methods: ['POST'] as const,
    auth: 'preorder' as const,
    body: bulkIdsSchema,
    handle: async (input: AdminInput<(typeof bulkIdsSchema)['_output']>) => {
      const services = servicesFor(input)
      const repository = resource.repository(services.repositories)
      const removed = resource.removed
      const result = await runBulkAction(resource, repository, action, input.body.ids, {
        log: input.log,
        now: services.now,
        audit: services.audit,
        onRemoved: removed && ((ref) => removed(ref, services)),
      })
      return bulkResponseBody(action, result)
    },
  }
}

/** POST /api/admin/{reservations,notify}/archives/list (§4.3, D3, D5). */
export function archiveListEndpoint<T extends AdminRecord>(resource: AdminResource<T>) {
  return {
    methods: ['POST'] as const,
    auth: 'preorder' as const,
    body: archiveListSchema,
    handle: async (input: AdminInput<(typeof archiveListSchema)['_output']>) => {
      const { items, unreadable, rebuilding, ...paging } = await listArchivedRecords(
        repositoryFor(resource, input),
        { ...input.body, list: resource.listField },
      )
      return {
        [resource.listField]: items,
        ...paging,
        ...unreadableField(unreadable),
        ...rebuildingField(rebuilding),
      }
    },
  }
}
