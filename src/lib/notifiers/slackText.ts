declare const slackMrkdwnBrand: unique symbol

/**
 * Slack `mrkdwn` in which every piece of user text has been escaped. Only the functions of this
 * module make one, so a raw customer string cannot reach a Slack message by mistake.
 */
export type SlackMrkdwn = string & { readonly [slackMrkdwnBrand]: true }

/**
 * Escapes the three characters Slack treats as control characters (D10), so that `<!channel>`,
 * `<@U123>` or `<https://evil|click>` in a customer's name stay plain text.
 */
export function escapeSlackText(text: string): SlackMrkdwn {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') as SlackMrkdwn
}

/**
 * Tagged template for Slack messages: the literal parts are trusted markup, every interpolated
 * value is escaped. Bare URLs may be interpolated: Slack links them itself (§6 rule 3).
 *
 * @example mrkdwn`*新しい予約* ${customerName}`
 */
export function mrkdwn(strings: TemplateStringsArray, ...values: unknown[]): SlackMrkdwn {
  let text = strings[0]
  values.forEach((value, index) => {
    text += escapeSlackText(String(value)) + strings[index + 1]
  })
  return text as SlackMrkdwn
}

/** Joins finished pieces (e.g. one `mrkdwn` line each) without escaping them again. */
export function joinMrkdwn(parts: readonly SlackMrkdwn[], separator = '\n'): SlackMrkdwn {
  return parts.join(separator) as SlackMrkdwn
}
