import type { messagingApi } from '@line/bot-sdk'
import type { EmailContent } from '../notifiers/resendMailer.js'

/** The most characters LINE takes in one text message. */
const LINE_TEXT_LIMIT = 5000

/**
 * A reservation's message (confirmation, status change, cancellation receipt) as one LINE text
 * message: the e-mail's subject and text, manage link included, with 「メール」 read as
 * 「メッセージ」 where the text speaks of itself.
 */
export function lineReservationMessage(
  email: Pick<EmailContent, 'subject' | 'text'>,
): messagingApi.TextMessage {
  const text = `${email.subject}\n\n${email.text}`.replace(/このメール/g, 'このメッセージ')
  return {
    type: 'text',
    text: text.length > LINE_TEXT_LIMIT ? text.slice(0, LINE_TEXT_LIMIT) : text,
  }
}
