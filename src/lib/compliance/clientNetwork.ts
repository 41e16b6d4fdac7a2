import { isIPv4, isIPv6 } from 'node:net'

/**
 * The client address reduced to its network (docs/compliance.md): IPv4 to its /24, IPv6 to its
 * /48 (an IPv4-mapped IPv6 address as IPv4). Enough to show roughly where a consent came from,
 * not enough to name one device; null when the address is unknown or not an IP address.
 */
export function clientNetwork(ip: string | null | undefined): string | null {
  const address = (ip ?? '').trim()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  const v4 = mapped ? mapped[1] : address
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`
  if (!isIPv6(address)) return null
  const [head, tail = ''] = address.toLowerCase().split('::')
  const headParts = head ? head.split(':') : []
  const tailParts = tail ? tail.split(':') : []
  const missing = 8 - headParts.length - tailParts.length
  const groups = [...headParts, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailParts]
  const prefix = groups.slice(0, 3).map((group) => (parseInt(group, 16) || 0).toString(16))
  return `${prefix.join(':')}::/48`
}
