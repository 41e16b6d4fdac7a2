import type { AppConfig } from '../config.js'
import type { Actor } from '../audit/auditTrail.js'
import type { Logger } from '../log.js'
import type { RequestContext } from '../requestContext.js'
import { openServices } from '../services.js'
import type { AdminRecord, AdminResource } from './adminResources.js'
import {
  archiveListSchema,
  bulkIdsSchema,
  listFiltersSchema,
  statusUpdateSchema,
} from './adminSchemas.js'
import { listArchivedRecords } from './archiveListing.js'
import { bulkResponseBody, runBulkAction, type BulkAction } from './bulkRecords.js'
import { listActiveRecords, rebuildingField, unreadableField } from './recordLists.js'
import { updateRecordStatus } from './statusUpdates.js'

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

/** POST /api/admin-{reservations,notify}-list (§4.1, §4.2, D3). */
export function activeListEndpoint<T extends AdminRecord>(resource: AdminResource<T>) {
  const body = listFiltersSchema(resource.statuses)
  return {
    methods: ['POST'] as const,
    auth: 'admin' as const,
    body,
    handle: async (input: AdminInput<(typeof body)['_output']>) => {
      const { records, unreadable, rebuilding } = await listActiveRecords(
        repositoryFor(resource, input),
        input.body,
      )
      return {
        [resource.listField]: records,
        ...unreadableField(unreadable),
        ...rebuildingField(rebuilding),
      }
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
        { audit: services.audit },
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
        input.body,
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
