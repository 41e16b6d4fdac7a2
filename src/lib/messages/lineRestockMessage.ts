import type { messagingApi } from '@line/bot-sdk'
import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import { holdLinkText, type HoldOffer } from './restockMessages.js'

/**
 * The LINE restock message (a Flex message, LINE Messaging API reference "Flex Message"): the
 * product's picture when it has one, the notice's title, the product name, the notice's text,
 * one button to the (counted) product link (below the hold's button and end when a unit is held
 * for the recipient), who sends it, and how to stop the messages
 * (blocking the official account). Plain data: the same inputs give the same message, so a
 * retried push is the same push.
 */

export interface LineRestockInput {
  title: string
  body: string
  productTitle: string
  productUrl: string
  /** The product's picture, or null. */
  imageUrl: string | null
  sender: SenderIdentity
  /** The unit held for this recipient (お取り置き), or absent. */
  hold?: HoldOffer
}

/** LINE's limit of a Flex message's `altText`. */
const ALT_TEXT_LIMIT = 400
/** The notice's text is cut here: a push is a note, the product page says the rest. */
const BODY_LIMIT = 1000

function cut(text: string, limit: number): string {
  const chars = [...text]
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`
}

export function lineRestockMessage(input: LineRestockInput): messagingApi.FlexMessage {
  const senderLine = [input.sender.name, input.sender.contact].filter(Boolean).join(' / ')
  const bubble: messagingApi.FlexBubble = {
    type: 'bubble',
    ...(input.imageUrl
      ? {
          hero: {
            type: 'image',
            url: input.imageUrl,
            size: 'full',
            aspectRatio: '20:13',
            aspectMode: 'cover',
            action: { type: 'uri', label: '商品ページ', uri: input.productUrl },
          },
        }
      : {}),
    body: {
      type: 'box',
      layout: 'vertical',
      spacing: 'md',
      contents: [
        { type: 'text', text: cut(input.title, 100), weight: 'bold', size: 'lg', wrap: true },
        { type: 'text', text: input.productTitle, size: 'md', wrap: true },
        { type: 'text', text: cut(input.body, BODY_LIMIT), size: 'sm', wrap: true },
        ...(input.hold
          ? [
              {
                type: 'text' as const,
                text: `この商品を1点、${input.hold.endsAt} までお取り置きしています。`,
                size: 'sm',
                weight: 'bold' as const,
                wrap: true,
              },
            ]
          : []),
      ],
    },
    footer: {
      type: 'box',
      layout: 'vertical',
      spacing: 'sm',
      contents: [
        ...(input.hold
          ? [
              {
                type: 'button' as const,
                style: 'primary' as const,
                action: {
                  type: 'uri' as const,
                  label: holdLinkText(input.hold.hours),
                  uri: input.hold.url,
                },
              },
            ]
          : []),
        {
          type: 'button',
          style: input.hold ? 'secondary' : 'primary',
          action: { type: 'uri', label: '商品ページを見る', uri: input.productUrl },
        },
        ...(senderLine
          ? [{ type: 'text' as const, text: `配信元: ${senderLine}`, size: 'xs', wrap: true }]
          : []),
        {
          type: 'text',
          text: '配信を止めるには、この公式アカウントをブロックしてください。',
          size: 'xs',
          wrap: true,
        },
      ],
    },
  }
  return {
    type: 'flex',
    altText: cut(`${input.title}｜${input.productTitle}`, ALT_TEXT_LIMIT),
    contents: bubble,
  }
}
