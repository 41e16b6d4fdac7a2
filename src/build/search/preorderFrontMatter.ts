import { z } from 'zod'
import type { PreorderSettings } from '../../lib/search/siteContentTypes.js'

/**
 * The pre-order fields of a product's front matter (all optional; docs/api.md "Product data"):
 * `reservationLimit` (units), `maxPerReservation` (default 5), `reservationOpensAt`,
 * `reservationClosesAt` (ISO 8601 with an offset) and `releaseDate` (a date, or a date and time).
 */

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/
const DATE_OR_TIME =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/

// why: YAML reads an unquoted timestamp as a Date; the instant is kept, written in UTC
const instant = z.union([
  z.date().refine((date) => !Number.isNaN(date.getTime()), 'must be a valid time'),
  z
    .string()
    .regex(
      OFFSET_TIME,
      'must be an ISO 8601 time with an offset, such as 2026-12-01T10:00:00+09:00',
    )
    .refine((text) => !Number.isNaN(Date.parse(text)), 'must be a valid time'),
])

const releaseDate = z.union([
  z.date().refine((date) => !Number.isNaN(date.getTime()), 'must be a valid date'),
  z
    .string()
    .regex(DATE_OR_TIME, 'must be an ISO date such as 2027-01-20 (or a time with an offset)')
    .refine((text) => !Number.isNaN(Date.parse(text)), 'must be a valid date'),
])

const units = (what: string) =>
  z.number(`${what} must be a whole number`).int(`${what} must be a whole number`)

/** Spread into the page front matter schema. */
export const preorderFrontMatter = {
  reservationLimit: units('reservationLimit')
    .min(0, 'reservationLimit must be 0 or more')
    .optional(),
  maxPerReservation: units('maxPerReservation')
    .min(1, 'maxPerReservation must be 1 or more')
    .max(100, 'maxPerReservation must be 100 or less')
    .optional(),
  reservationOpensAt: instant.optional(),
  reservationClosesAt: instant.optional(),
  releaseDate: releaseDate.optional(),
}

type PreorderFrontMatter = {
  [Key in keyof typeof preorderFrontMatter]?: z.output<(typeof preorderFrontMatter)[Key]>
}

function isoOf(value: Date | string | undefined): string | null {
  if (value === undefined) return null
  return typeof value === 'string' ? value : value.toISOString()
}

function dateOf(value: Date | string | undefined): string | null {
  if (value === undefined || typeof value === 'string') return value ?? null
  const iso = value.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}

/** A window whose end is not after its start: refused at build time, with the fix. */
export function windowProblem(data: PreorderFrontMatter): string | null {
  const opens = isoOf(data.reservationOpensAt)
  const closes = isoOf(data.reservationClosesAt)
  if (opens && closes && Date.parse(closes) <= Date.parse(opens)) {
    return 'reservationClosesAt must be later than reservationOpensAt'
  }
  return null
}

/** The settings stored in the catalogue: only fields the page sets. */
export function preorderFields(data: PreorderFrontMatter): PreorderSettings {
  const settings: PreorderSettings = {}
  if (data.reservationLimit !== undefined) settings.reservationLimit = data.reservationLimit
  if (data.maxPerReservation !== undefined) settings.maxPerReservation = data.maxPerReservation
  const opens = isoOf(data.reservationOpensAt)
  if (opens) settings.reservationOpensAt = opens
  const closes = isoOf(data.reservationClosesAt)
  if (closes) settings.reservationClosesAt = closes
  const release = dateOf(data.releaseDate)
  if (release) settings.releaseDate = release
  return settings
}
