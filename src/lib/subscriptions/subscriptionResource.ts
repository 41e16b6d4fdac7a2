import type { AdminResource } from '../admin/adminResources.js'
import { applySubscriptionStatus } from '../admin/statusRules.js'
import { SUBSCRIPTION_STATUSES, type NotifySubscription } from '../storage/records.js'

/** Restock subscriptions as the admin record endpoints manage them (§4.2–§4.7). */
export const subscriptionResource: AdminResource<NotifySubscription> = {
  noun: 'subscription',
  listField: 'subscriptions',
  recordField: 'subscription',
  statuses: SUBSCRIPTION_STATUSES,
  notFoundMessage: 'Subscription not found',
  hasNotes: false,
  repository: (repositories) => repositories.subscriptions,
  applyStatus: applySubscriptionStatus,
}
