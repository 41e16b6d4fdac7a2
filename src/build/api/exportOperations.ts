import { z } from 'zod'
import {
  EXPORT_ID_INVALID,
  EXPORT_LIST_INVALID,
  exportIdSchema,
  exportRequestSchema,
  invalidStatusMessage,
  SEARCH_INVALID,
  VARIANT_WITHOUT_PRODUCT,
} from '../../lib/admin/adminSchemas.js'
import { EXPORT_NOT_FOUND, EXPORT_NOT_READY } from '../../lib/admin/listExports.js'
import {
  adminErrors,
  failure,
  mergeResponses,
  type ApiOperation,
  type Responses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** CSV exports of large lists, built by a background function. */

const EXPORT_ID = 'exp_0b7e4f3c-5d0e-4a51-9d43-2f1f7c1f3a10'
const JOB = {
  exportId: EXPORT_ID,
  list: 'reservations',
  state: 'queued',
  fileName: '予約-20261124-1030.csv',
  totalRows: null,
  writtenRows: 0,
  parts: 0,
  bytes: 0,
  createdAt: '2026-11-24T01:30:00.000Z',
  updatedAt: '2026-11-24T01:30:00.000Z',
}
const DONE = {
  ...JOB,
  state: 'done',
  totalRows: 12000,
  writtenRows: 12000,
  parts: 3,
  bytes: 3050000,
  updatedAt: '2026-11-24T01:30:09.000Z',
  downloadPath: `/api/admin/exports/download?exportId=${EXPORT_ID}`,
}

function admin(responses: Responses): Responses {
  return mergeResponses(responses, adminErrors())
}

export const EXPORT_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminExports',
    operationId: 'createListExport',
    tag: 'Admin',
    summary: 'Start a CSV export of a list (background)',
    description:
      'Exports every record of an active or archive list that matches the filters and `q` (as the list endpoints take them) as a CSV file for Excel: UTF-8 with a byte order mark, Japanese headers, the dashboard’s columns. A background function writes it in parts of 5,000 rows; ask the status endpoint until `done`, then download it.',
    body: {
      schema: exportRequestSchema,
      view: 'input',
      example: { list: 'reservations', status: 'pending' },
    },
    responses: admin({
      200: {
        description: 'The export, queued.',
        body: answers.exportAnswer,
        examples: { success: { success: true, export: JOB } },
      },
      400: failure(
        'Unknown list, or a filter is not valid.',
        EXPORT_LIST_INVALID,
        invalidStatusMessage('shipped'),
        'productSlug must be a string',
        'variant must be a string',
        VARIANT_WITHOUT_PRODUCT,
        SEARCH_INVALID,
      ),
      503: failure(
        'The background function could not be started.',
        'The export could not be started; try again',
      ),
    }),
  },
  {
    method: 'post',
    route: 'adminExportsStatus',
    operationId: 'listExportStatus',
    tag: 'Admin',
    summary: 'State and progress of a CSV export',
    description: 'Rows written so far; once `done`, the path to download the file.',
    body: { schema: exportIdSchema, view: 'input', example: { exportId: EXPORT_ID } },
    responses: admin({
      200: {
        description: 'The export.',
        body: answers.exportAnswer,
        examples: { success: { success: true, export: DONE } },
      },
      400: failure('No export named.', EXPORT_ID_INVALID),
      404: failure('No export has this id.', EXPORT_NOT_FOUND),
    }),
  },
  {
    method: 'get',
    route: 'adminExportsDownload',
    operationId: 'downloadListExport',
    tag: 'Admin',
    summary: 'Download a finished CSV export',
    description:
      'The CSV, streamed, with its Japanese file name in `Content-Disposition` (`filename*`). A file over 15 MB is downloaded by part (`part=1` to `parts`; only part 1 has the byte order mark and the header row).',
    query: z.object({
      exportId: z.string().meta({ description: 'The export.' }),
      part: z.int().min(1).optional().meta({ description: 'One part of the file (1-based).' }),
    }),
    responses: admin({
      200: { description: 'The CSV file (`text/csv; charset=utf-8`).', body: 'csv' },
      400: failure(
        'No export named, a bad part, or a file too large for one answer.',
        'exportId is required',
        'part must be a positive integer',
        'part must be between 1 and 3',
        'this file is 25000000 bytes, too large for one answer; download it by part (part=1 to 5)',
      ),
      404: failure('No export has this id.', EXPORT_NOT_FOUND),
      409: failure('Not written yet.', EXPORT_NOT_READY),
    }),
  },
  {
    method: 'post',
    route: 'adminExportBackground',
    operationId: 'runListExport',
    tag: 'Service',
    summary: 'Write a CSV export (background function)',
    description:
      'Started by `POST /api/admin/exports` only. It admits a call only with an export ticket that this deploy issued for that export (single use, 5 minutes); the admin tokens are not tickets.',
    body: { schema: exportIdSchema, view: 'input', example: { exportId: EXPORT_ID } },
    responses: {
      202: { description: 'Accepted; runs in the background (empty body).', body: 'none' },
    },
  },
]
