/**
 * The failures services report, in the domain's words. Services throw these and never speak
 * HTTP; the endpoint wrapper (http/endpoint.ts) maps each class to a status in one table. The
 * message is the documented answer text, so it says what went wrong in words a caller can act on.
 */

/** Something a caller can fix or wait out; the endpoint answers it without logging an error. */
export abstract class DomainError extends Error {
  /** Extra fields of the answer beside `error` (e.g. the form's `details`). */
  readonly details: Record<string, unknown>

  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message)
    this.details = details
  }
}

/** The request names or carries a value that cannot be used (400). */
export class InvalidInputError extends DomainError {
  override name = 'InvalidInputError'
}

/** The caller has not proved who it is, or its proof has expired (401). */
export class UnauthorizedError extends DomainError {
  override name = 'UnauthorizedError'
}

/** A signed value was not signed by this service (403). */
export class InvalidSignatureError extends DomainError {
  override name = 'InvalidSignatureError'
}

/** What the request names does not exist (404). */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError'
}

/** A signed link's time is up; a new one must be asked for (410). */
export class LinkExpiredError extends DomainError {
  override name = 'LinkExpiredError'
}

/** The record's current status does not allow the change asked for (409). */
export class TransitionNotAllowedError extends DomainError {
  override name = 'TransitionNotAllowedError'
}

/** What the request asks for cannot be had now: a cap reached, a window closed (409). */
export class NotAvailableError extends DomainError {
  override name = 'NotAvailableError'
}

/** Another request is doing the same thing to the same item right now; try again shortly (409). */
export class AlreadyInProgressError extends DomainError {
  override name = 'AlreadyInProgressError'
}

/** A key that names one request (an `Idempotency-Key`) was sent with another one (422). */
export class KeyReusedError extends DomainError {
  override name = 'KeyReusedError'
}

/**
 * A record kept changing under an update (409, CONFLICT_MESSAGE); nothing was written. Storage
 * throws its own subclass that names the blob key (for the log line, never the answer).
 */
export class ConcurrentChangeError extends Error {
  override name = 'ConcurrentChangeError'
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message)
  }
}

/** A setting this use needs is missing; the message names what (503). */
export class NotConfiguredError extends DomainError {
  override name = 'NotConfiguredError'
}

/** A dependency could not be reached just now; nothing was changed, trying again may work (503). */
export class TryAgainLaterError extends DomainError {
  override name = 'TryAgainLaterError'
}

/** Text of a 500 answer: nothing about the cause reaches the caller (the log has the stack). */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error'

/** Text of the 409 for a ConcurrentChangeError. */
export const CONFLICT_MESSAGE =
  'The record was changed by another request at the same time; try again'
