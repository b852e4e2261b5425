/**
 * Records managed by the account manager (maintain_by AM, API 2.2 and 2.3) are the user's to
 * view, not to change (DESIGN 5): any edit to one is refused before sending.
 */

/** Field messages, as the API's validation errors carry them (part 7). */
export type FieldMessages = Record<string, string>;

export const AM_MESSAGE =
  'this record is managed by your account manager (maintain_by AM): you may view it, not change it';

/** The refusal for an edit of a record maintained by `maintainBy`; {} when it may be edited. */
export function checkMaintainedBy(
  maintainBy: string | undefined,
): FieldMessages {
  return String(maintainBy ?? '').toUpperCase() === 'AM'
    ? {maintain_by: AM_MESSAGE}
    : {};
}
