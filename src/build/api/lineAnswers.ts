import { z } from 'zod'
import { count } from './answerParts.js'

/** Answers of the LINE channel (README "LINE"; responseSchemas.ts). */

export const lineWebhookAnswer = z.strictObject({
  success: z.literal(true),
  received: count.meta({ description: 'Events in the body.' }),
  handled: count.meta({
    description: '`follow` and `unfollow` events of users who signed up with LINE.',
  }),
  unsubscribed: count.meta({ description: 'Waiting LINE sign-ups an `unfollow` ended.' }),
})
