import type { AppConfig } from '../config.js'
import { InvalidInputError } from '../errors.js'
import type { SenderIdentity } from '../storage/deliveryJobStore.js'

/**
 * Who sends the restock e-mails (特定電子メール法 Art. 4, docs/compliance.md): the sender's name,
 * a postal address and a contact for complaints, from `SHOP_NAME`, `SHOP_ADDRESS`, `SHOP_CONTACT`.
 */
export function senderIdentity(
  config: Pick<AppConfig, 'shopName' | 'shopAddress' | 'shopContact'>,
): SenderIdentity {
  const missing = [
    config.shopName ? null : 'SHOP_NAME',
    config.shopAddress ? null : 'SHOP_ADDRESS',
    config.shopContact ? null : 'SHOP_CONTACT',
  ].filter((name): name is string => name !== null)
  return {
    name: config.shopName,
    address: config.shopAddress,
    contact: config.shopContact,
    missing,
  }
}

/** A production send without the sender's details: the law requires them in every e-mail. */
export class SenderIdentityMissingError extends InvalidInputError {
  override name = 'SenderIdentityMissingError'
  /** How to fix it (for the log). */
  readonly fix =
    'Every restock e-mail must show the shop name, a postal address and a contact ' +
    '(特定電子メール法 Art. 4); set them in the site environment.'
  constructor(readonly missing: string[]) {
    super(
      `Sender details are not configured: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set`,
    )
  }
}

/**
 * The sender of a send in `deployContext`. Production refuses to send without every detail
 * (SenderIdentityMissingError); elsewhere the e-mail says what is missing.
 */
export function requireSenderIdentity(
  config: Pick<AppConfig, 'shopName' | 'shopAddress' | 'shopContact' | 'deployContext'>,
): SenderIdentity {
  const identity = senderIdentity(config)
  if (identity.missing.length > 0 && config.deployContext === 'production') {
    throw new SenderIdentityMissingError(identity.missing)
  }
  return identity
}
