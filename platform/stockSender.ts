import { webhookSignature } from '../src/lib/signing/webhookSignature.js'

/**
 * A stand-in for a shop's inventory system or POS: POSTs a stock event to the service's webhook,
 * signed now with `secret` (`X-Stock-Signature`, the scheme of src/lib/signing/webhookSignature.ts).
 */
export async function postStockEvent(
  baseUrl: string,
  secret: string,
  event: { id: string; items: { sku?: string; productSlug?: string; quantity: number }[] },
): Promise<{ status: number; body: any }> {
  const body = JSON.stringify(event)
  const t = Math.floor(Date.now() / 1000)
  const response = await fetch(new URL('/api/stock-webhook', baseUrl), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Stock-Signature': `t=${t},v1=${webhookSignature(secret, t, body)}`,
    },
    body,
  })
  return { status: response.status, body: await response.json() }
}
