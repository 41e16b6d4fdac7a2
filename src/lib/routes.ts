import type { z } from 'zod'
import type * as answers from '../build/api/responseSchemas.js'

/**
 * Every route of the service, once: the function file that answers it, its path, its methods,
 * who may call it and the schema of its successful answer. The OpenAPI document takes paths and
 * token groups from here (src/build/api), the dashboard and the widgets take paths and answer types
 * from here, and tests/api/routeTable.test.ts checks it against every function file's
 * `config.path`. Plain data and types only: the browser bundles import it.
 */

/**
 * The two token groups of §5. `admin`: lists, status updates, stats, send (ADMIN_API_TOKEN).
 * `preorder`: archive, archive lists, unarchive, delete (PREORDER_API_TOKEN, D7).
 */
export type TokenGroup = 'admin' | 'preorder'

/**
 * Who may call a route: a token group (§5, D7), a token of either group (`staff`), anyone, or the
 * holder of a delivery ticket (the
 * signed, short-lived ticket a send issues to its own background delivery) or of a rebuild
 * ticket (the one a request that found an index missing issues to the background rebuild).
 */
export type RouteAuth =
  TokenGroup | 'staff' | 'none' | 'deliveryTicket' | 'rebuildTicket' | 'exportTicket'

export interface RouteSpec {
  /** The file under netlify/functions/ that answers it, without `.ts`. */
  function: string
  /**
   * Its `config.path` (a path parameter as `:name`, as Netlify writes it; OpenAPI shows `{name}`);
   * `/.netlify/functions/<function>` for one without (background, scheduled).
   */
  path: string
  /** The methods it answers (any other gets 405 + `Allow`, D8). */
  methods: readonly ('GET' | 'POST')[]
  auth: RouteAuth
  /** The export of src/build/api/responseSchemas.ts its JSON success answer has; null when none. */
  response: keyof typeof answers | null
}

export const ROUTES = {
  reservation: {
    function: 'reservation',
    path: '/api/reservation',
    methods: ['POST'],
    auth: 'none',
    response: 'reservationCreated',
  },
  notifySignup: {
    function: 'notify-signup',
    path: '/api/notify-signup',
    methods: ['POST'],
    auth: 'none',
    response: 'subscriptionCreated',
  },
  notifyUnsubscribe: {
    function: 'notify-unsubscribe',
    path: '/api/notify-unsubscribe',
    methods: ['GET', 'POST'],
    auth: 'none',
    response: 'unsubscribedAnswer',
  },
  notifyKeep: {
    function: 'notify-keep',
    path: '/api/notify-keep',
    methods: ['GET', 'POST'],
    auth: 'none',
    response: 'keptAnswer',
  },
  notifyStatus: {
    function: 'notify-status',
    path: '/notify/status',
    methods: ['GET'],
    auth: 'none',
    response: null,
  },
  reservationHold: {
    function: 'reservation-hold',
    path: '/reservation/hold',
    methods: ['GET', 'POST'],
    auth: 'none',
    response: 'holdClaimAnswer',
  },
  search: {
    function: 'search',
    path: '/api/search',
    methods: ['GET'],
    auth: 'none',
    response: 'searchAnswer',
  },
  productAvailability: {
    function: 'product-availability',
    path: '/api/products/:slug/availability',
    methods: ['GET'],
    auth: 'none',
    response: 'availabilityAnswer',
  },
  reservationManage: {
    function: 'reservation-manage',
    path: '/reservation/manage',
    methods: ['GET', 'POST'],
    auth: 'none',
    response: null,
  },
  openapi: {
    function: 'openapi',
    path: '/api/openapi.json',
    methods: ['GET'],
    auth: 'none',
    response: 'openApiAnswer',
  },
  adminReservationsList: {
    function: 'admin-reservations-list',
    path: '/api/admin-reservations-list',
    methods: ['POST'],
    auth: 'admin',
    response: 'reservationList',
  },
  adminReservationsStatus: {
    function: 'admin-reservations-status',
    path: '/api/admin-reservations-status',
    methods: ['POST'],
    auth: 'admin',
    response: 'reservationUpdated',
  },
  adminReservationsArchive: {
    function: 'admin-reservations-archive',
    path: '/api/admin/reservations/archive',
    methods: ['POST'],
    auth: 'preorder',
    response: 'archivedAnswer',
  },
  adminReservationsUnarchive: {
    function: 'admin-reservations-unarchive',
    path: '/api/admin/reservations/unarchive',
    methods: ['POST'],
    auth: 'preorder',
    response: 'unarchivedAnswer',
  },
  adminReservationsDelete: {
    function: 'admin-reservations-delete',
    path: '/api/admin/reservations/delete',
    methods: ['POST'],
    auth: 'preorder',
    response: 'deletedAnswer',
  },
  adminReservationsArchivesList: {
    function: 'admin-reservations-archives-list',
    path: '/api/admin/reservations/archives/list',
    methods: ['POST'],
    auth: 'preorder',
    response: 'reservationArchivePage',
  },
  adminReservationsFind: {
    function: 'admin-reservations-find',
    path: '/api/admin/reservations/find',
    methods: ['POST'],
    auth: 'admin',
    response: 'reservationFound',
  },
  adminReservationsProducts: {
    function: 'admin-reservations-products',
    path: '/api/admin/reservations/products',
    methods: ['POST'],
    auth: 'admin',
    response: 'preorderProducts',
  },
  adminNotifyList: {
    function: 'admin-notify-list',
    path: '/api/admin-notify-list',
    methods: ['POST'],
    auth: 'admin',
    response: 'subscriptionList',
  },
  adminNotifyStatus: {
    function: 'admin-notify-status',
    path: '/api/admin-notify-status',
    methods: ['POST'],
    auth: 'admin',
    response: 'subscriptionUpdated',
  },
  adminNotifyArchive: {
    function: 'admin-notify-archive',
    path: '/api/admin/notify/archive',
    methods: ['POST'],
    auth: 'preorder',
    response: 'archivedAnswer',
  },
  adminNotifyUnarchive: {
    function: 'admin-notify-unarchive',
    path: '/api/admin/notify/unarchive',
    methods: ['POST'],
    auth: 'preorder',
    response: 'unarchivedAnswer',
  },
  adminNotifyDelete: {
    function: 'admin-notify-delete',
    path: '/api/admin/notify/delete',
    methods: ['POST'],
    auth: 'preorder',
    response: 'deletedAnswer',
  },
  adminNotifyArchivesList: {
    function: 'admin-notify-archives-list',
    path: '/api/admin/notify/archives/list',
    methods: ['POST'],
    auth: 'preorder',
    response: 'subscriptionArchivePage',
  },
  adminWhoami: {
    function: 'admin-whoami',
    path: '/api/admin/whoami',
    methods: ['POST'],
    auth: 'staff',
    response: 'whoamiAnswer',
  },
  adminStats: {
    function: 'admin-stats',
    path: '/api/admin-stats',
    methods: ['POST'],
    auth: 'admin',
    response: 'statsAnswer',
  },
  adminNotifySend: {
    function: 'admin-notify-send',
    path: '/api/admin/notify/send',
    methods: ['POST'],
    auth: 'admin',
    response: 'sendSummary',
  },
  adminNotifyHistory: {
    function: 'admin-notify-history',
    path: '/api/admin/notify/history',
    methods: ['POST'],
    auth: 'admin',
    response: 'historyPage',
  },
  adminAuditList: {
    function: 'admin-audit-list',
    path: '/api/admin/audit/list',
    methods: ['POST'],
    auth: 'admin',
    response: 'auditPage',
  },
  adminNotifyResume: {
    function: 'admin-notify-resume',
    path: '/api/admin/notify/resume',
    methods: ['POST'],
    auth: 'admin',
    response: 'resumeAnswer',
  },
  adminSearchKeywords: {
    function: 'admin-search-keywords',
    path: '/api/admin/search-keywords',
    methods: ['POST'],
    auth: 'admin',
    response: 'keywordSummary',
  },
  searchSuggest: {
    function: 'search-suggest',
    path: '/api/search/suggest',
    methods: ['GET'],
    auth: 'none',
    response: 'suggestAnswer',
  },
  adminSearchSynonymsList: {
    function: 'admin-search-synonyms-list',
    path: '/api/admin/search/synonyms/list',
    methods: ['POST'],
    auth: 'admin',
    response: 'synonymListAnswer',
  },
  adminSearchSynonymsAdd: {
    function: 'admin-search-synonyms-add',
    path: '/api/admin/search/synonyms',
    methods: ['POST'],
    auth: 'admin',
    response: 'synonymAddedAnswer',
  },
  adminSearchSynonymsRemove: {
    function: 'admin-search-synonyms-remove',
    path: '/api/admin/search/synonyms/remove',
    methods: ['POST'],
    auth: 'admin',
    response: 'synonymDeletedAnswer',
  },
  notifyDeliverBackground: {
    function: 'notify-deliver-background',
    path: '/.netlify/functions/notify-deliver-background',
    methods: ['POST'],
    auth: 'deliveryTicket',
    response: null,
  },
  resumeStalledDeliveries: {
    function: 'resume-stalled-deliveries',
    path: '/.netlify/functions/resume-stalled-deliveries',
    methods: ['POST'],
    auth: 'none',
    response: 'stalledSweep',
  },
  searchKeywordsRollup: {
    function: 'search-keywords-rollup',
    path: '/.netlify/functions/search-keywords-rollup',
    methods: ['POST'],
    auth: 'none',
    response: 'keywordRollupAnswer',
  },
  notifyConfirm: {
    function: 'notify-confirm',
    path: '/api/notify-confirm',
    methods: ['GET', 'POST'],
    auth: 'none',
    response: 'confirmedAnswer',
  },
  resendWebhook: {
    function: 'resend-webhook',
    path: '/api/resend-webhook',
    methods: ['POST'],
    auth: 'none',
    response: 'webhookAnswer',
  },
  adminPeopleExport: {
    function: 'admin-people-export',
    path: '/api/admin/people/export',
    methods: ['POST'],
    auth: 'admin',
    response: 'personExport',
  },
  adminPeopleErase: {
    function: 'admin-people-erase',
    path: '/api/admin/people/erase',
    methods: ['POST'],
    auth: 'admin',
    response: 'personErased',
  },
  adminSuppressionsList: {
    function: 'admin-suppressions-list',
    path: '/api/admin/suppressions/list',
    methods: ['POST'],
    auth: 'admin',
    response: 'suppressionList',
  },
  adminSuppressionsLift: {
    function: 'admin-suppressions-lift',
    path: '/api/admin/suppressions/lift',
    methods: ['POST'],
    auth: 'admin',
    response: 'suppressionLifted',
  },
  retentionPurge: {
    function: 'retention-purge',
    path: '/.netlify/functions/retention-purge',
    methods: ['POST'],
    auth: 'none',
    response: 'purgeAnswer',
  },
  signupExpiry: {
    function: 'signup-expiry',
    path: '/.netlify/functions/signup-expiry',
    methods: ['POST'],
    auth: 'none',
    response: 'signupExpiryAnswer',
  },
  adminStockList: {
    function: 'admin-stock-list',
    path: '/api/admin/stock/list',
    methods: ['POST'],
    auth: 'admin',
    response: 'stockListAnswer',
  },
  adminStock: {
    function: 'admin-stock',
    path: '/api/admin/stock',
    methods: ['POST'],
    auth: 'admin',
    response: 'stockUpdated',
  },
  adminStockPreview: {
    function: 'admin-stock-preview',
    path: '/api/admin/stock/preview',
    methods: ['POST'],
    auth: 'admin',
    response: 'stockPreviewAnswer',
  },
  adminNotifyAuto: {
    function: 'admin-notify-auto',
    path: '/api/admin/notify/auto',
    methods: ['POST'],
    auth: 'admin',
    response: 'autoSaved',
  },
  stockWebhook: {
    function: 'stock-webhook',
    path: '/api/stock-webhook',
    methods: ['POST'],
    auth: 'none',
    response: 'stockWebhookAnswer',
  },
  orderWebhook: {
    function: 'order-webhook',
    path: '/api/order-webhook',
    methods: ['POST'],
    auth: 'none',
    response: 'orderWebhookAnswer',
  },
  stockReconcile: {
    function: 'stock-reconcile',
    path: '/.netlify/functions/stock-reconcile',
    methods: ['POST'],
    auth: 'none',
    response: 'stockReconciled',
  },
  listingRebuild: {
    function: 'listing-rebuild-background',
    path: '/.netlify/functions/listing-rebuild-background',
    methods: ['POST'],
    auth: 'rebuildTicket',
    response: null,
  },
  listingVerify: {
    function: 'listing-verify',
    path: '/.netlify/functions/listing-verify',
    methods: ['POST'],
    auth: 'none',
    response: 'indexVerifyAnswer',
  },
  adminOverview: {
    function: 'admin-overview',
    path: '/api/admin/overview',
    methods: ['POST'],
    auth: 'admin',
    response: 'overviewAnswer',
  },
  restockClick: {
    function: 'restock-click',
    path: '/api/r',
    methods: ['GET'],
    auth: 'none',
    response: null,
  },
  adminExports: {
    function: 'admin-exports',
    path: '/api/admin/exports',
    methods: ['POST'],
    auth: 'admin',
    response: 'exportAnswer',
  },
  adminExportsStatus: {
    function: 'admin-exports-status',
    path: '/api/admin/exports/status',
    methods: ['POST'],
    auth: 'admin',
    response: 'exportAnswer',
  },
  adminExportsDownload: {
    function: 'admin-exports-download',
    path: '/api/admin/exports/download',
    methods: ['GET'],
    auth: 'admin',
    response: null,
  },
  adminExportBackground: {
    function: 'admin-export-background',
    path: '/.netlify/functions/admin-export-background',
    methods: ['POST'],
    auth: 'exportTicket',
    response: null,
  },
  lineWebhook: {
    function: 'line-webhook',
    path: '/api/line-webhook',
    methods: ['POST'],
    auth: 'none',
    response: 'lineWebhookAnswer',
  },
  lineLogin: {
    function: 'line-login',
    path: '/api/line/login',
    methods: ['GET'],
    auth: 'none',
    response: null,
  },
  lineCallback: {
    function: 'line-callback',
    path: '/api/line/callback',
    methods: ['GET'],
    auth: 'none',
    response: null,
  },
} as const satisfies Record<string, RouteSpec>

export type RouteName = keyof typeof ROUTES

/**
 * The path of `Name` as a type: the storefront widgets type their path literals with it, so the
 * compiler holds them to this table without the table entering their bundle.
 */
export type RoutePath<Name extends RouteName> = (typeof ROUTES)[Name]['path']

/** The routes with a JSON success answer. */
export type AnsweringRoute = {
  [Name in RouteName]: (typeof ROUTES)[Name]['response'] extends null ? never : Name
}[RouteName]

/** The success answer of `Name`, as its response schema outputs it. */
export type RouteAnswer<Name extends AnsweringRoute> = z.output<
  (typeof answers)[NonNullable<(typeof ROUTES)[Name]['response']>]
>

/** The admin routes of one token group (the dashboard's client sends the group's token). */
export type RoutesOf<Auth extends RouteAuth> = {
  [Name in RouteName]: (typeof ROUTES)[Name]['auth'] extends Auth ? Name : never
}[RouteName]
