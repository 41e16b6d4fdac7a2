import { defineEndpoint } from '../http/endpoint.js'
import { jsonResponse } from '../http/response.js'
import { openRepositories } from '../storage/repositories.js'
import { openAuditRecorder } from '../audit/openAuditRecorder.js'
import type { AdminRecord, AdminResource } from './adminResources.js'
import {
  archiveListSchema,
  bulkIdsSchema,
  listFiltersSchema,
  statusUpdateSchema,
} from './adminSchemas.js'
import { listArchivedRecords } from './archiveListing.js'
import { bulkResponseBody, runBulkAction, type BulkAction } from './bulkRecords.js'
import { listActiveRecords, unreadableField } from './recordLists.js'
import { updateRecordStatus } from './statusUpdates.js'

/**
 * The admin record endpoints, built once for both resources: each file in netlify/functions is
 * `export default <factory>(<resource>)` plus its path. Token groups follow §5 and D7.
 */

/** POST /api/admin-{reservations,notify}-list (§4.1, §4.2, D3). */
export function activeListEndpoint<T extends AdminRecord>(resource: AdminResource<T>) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'admin',
    body: listFiltersSchema(resource.statuses),
    handle: async ({ context, body }) => {
      const repository = resource.repository(openRepositories(context))
      const { records, unreadable } = await listActiveRecords(repository, body)
      return jsonResponse({
        success: true,
        [resource.listField]: records,
        ...unreadableField(unreadable),
      })
    },
  })
}

/** POST /api/admin-{reservations,notify}-status (§4.4, §4.5, D4, D6). */
export function statusUpdateEndpoint<T extends AdminRecord>(resource: AdminResource<T>) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'admin',
    body: statusUpdateSchema(resource.statuses, { notes: resource.hasNotes }),
    handle: async ({ context, body, actor, log }) => {
      const repository = resource.repository(openRepositories(context))
      const audit = openAuditRecorder(context, actor, log)
      const record = await updateRecordStatus(resource, repository, body, { audit })
      return jsonResponse({ success: true, [resource.recordField]: record })
    },
  })
}

/** POST /api/admin/{reservations,notify}/{archive,unarchive,delete} (§4.6, §4.7, D3, D5). */
export function bulkActionEndpoint<T extends AdminRecord>(
  resource: AdminResource<T>,
  action: BulkAction,
) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'preorder',
    body: bulkIdsSchema,
    handle: async ({ context, body, log, actor }) => {
      const repository = resource.repository(openRepositories(context))
      const audit = openAuditRecorder(context, actor, log)
      const result = await runBulkAction(resource, repository, action, body.ids, { log, audit })
      return jsonResponse(bulkResponseBody(action, result))
    },
  })
}

/** POST /api/admin/{reservations,notify}/archives/list (§4.3, D3, D5). */
export function archiveListEndpoint<T extends AdminRecord>(resource: AdminResource<T>) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'preorder',
    body: archiveListSchema,
    handle: async ({ context, body }) => {
      const repository = resource.repository(openRepositories(context))
      const { items, unreadable, ...paging } = await listArchivedRecords(repository, body)
      return jsonResponse({
        success: true,
        [resource.listField]: items,
        ...paging,
        ...unreadableField(unreadable),
      })
    },
  })
}
