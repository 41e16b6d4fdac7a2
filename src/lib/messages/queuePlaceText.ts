/**
 * A sign-up's place in the queue as shoppers read it, the same on the status page, in the
 * e-mail and in the `<shop-notify>` widget, and the name of the page that shows it. Plain data
 * only: the widget bundle imports it.
 */

/** The title of a sign-up's status page, also the name of its link in e-mails and pages. */
export const STATUS_PAGE_TITLE = '入荷待ちの状況'

/** `place` of `waiting` (subscriptions/queuePlace.ts). */
export interface QueuePlace {
  /** 1 for the next subscriber a wave e-mails. */
  place: number
  /** Everyone in the same queue, this sign-up included. */
  waiting: number
}

/** 「12 番目（入荷待ち 40 人）」 */
export function placeText({ place, waiting }: QueuePlace): string {
  return `${place} 番目（入荷待ち ${waiting} 人）`
}
