import { mrkdwn, type SlackMrkdwn } from '../notifiers/slackText.js'

/**
 * What a customer typed (a name), made safe to repeat in an e-mail or a staff chat: never a link
 * there. Mail programs and chat tools turn `http://…`, `www.…` and `name.tld` into links, so the
 * scheme and the dots before a top-level-domain-like word are broken: `http://phish.example/1`
 * becomes `http[:]//phish[.]example/1` (README "Abuse protection"). A name such as `J.Smith`
 * reads `J[.]Smith`: the price of never linking what a stranger wrote.
 */
export function unlinkedText(text: string): string {
  return text
    .replace(/:\/\//g, '[:]//')
    .replace(/\b(www)\./gi, '$1[.]')
    .replace(/([\p{L}\p{N}-])\.(?=[A-Za-z]{2,}(?![\p{L}\p{N}]))/gu, '$1[.]')
}

/**
 * Customer text in a Slack message: in an inline code span (no bold, no links, no mentions),
 * with its own backticks replaced and its URLs broken (`unlinkedText`).
 */
export function slackCustomerText(text: string): SlackMrkdwn {
  return mrkdwn`\`${unlinkedText(text).replace(/`/g, 'ˋ')}\``
}

/** A customer's e-mail address in a Slack message: an inline code span, so never a mailto link or formatting. */
export function slackCustomerAddress(address: string): SlackMrkdwn {
  return mrkdwn`\`${address.replace(/`/g, 'ˋ')}\``
}
