import net from 'node:net'

const BASE = 'http://localhost:8888'

export interface JsonRequestOptions {
  method?: string
  token?: string | null
  headers?: Record<string, string>
}

/** A real `Request` with a JSON body (a string is sent as it is). */
export function jsonRequest(
  path: string,
  body?: unknown,
  options: JsonRequestOptions = {},
): Request {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers }
  if (options.token) headers.Authorization = `Bearer ${options.token}`
  return new Request(new URL(path, BASE), {
    method: options.method ?? 'POST',
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Status, headers and parsed JSON of a response. */
export async function readJson(response: Response): Promise<{
  status: number
  headers: Headers
  body: Record<string, any>
}> {
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} }
}

/**
 * A client that sends a POST's headers and half its body to `port` on 127.0.0.1 and hangs up
 * after `ms` (an impatient or broken client); resolves when its connection is closed.
 */
export function hangUpMidBody(port: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /api/reservation HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n{"a"',
      )
      setTimeout(() => socket.destroy(), ms)
    })
    socket.on('close', () => resolve())
    socket.on('error', () => resolve())
  })
}
