/**
 * What reading a record back tells of a write whose answer was lost (a dropped request, a 5xx
 * after the server applied it, a 200 that is no envelope), and what is done next: pure, from
 * what the write sent, what the record held before it and what the server lists now, each as
 * the canonical texts of the record's editable fields. jobs/read-back.ts reads the records;
 * a push and a create's tracking settle their lost writes by these verdicts alike.
 */

/** The record as the server lists it after the write. */
export interface ServerRecord {
  /** Its rows of texts, a field the list does not return holding any text. */
  rows: ReadonlyArray<readonly string[]>;
  /** The fields the list does not return: reading cannot tell them. */
  blind: ReadonlySet<string>;
}

export interface ReadBackCase {
  /** The record's editable fields, in the order of each row's texts. */
  fields: readonly string[];
  /** The text of an empty field: a one-row record with no row holds it in every field. */
  empty: string;
  sent: ReadonlyArray<readonly string[]>;
  before: ReadonlyArray<readonly string[]>;
  /**
   * The fields the write changed, of a one-row record: judged one by one, since a field
   * changed on the server since the pull is no sign that the write was not applied. None: the
   * record is judged whole (a record of many rows: a budget's groups).
   */
  changed: readonly string[];
  /** What the server lists now; undefined: the list did not return the record. */
  server: ServerRecord | undefined;
}

/** Why reading back cannot tell whether the write was applied. */
export type CannotTell =
  /** The list could not be read (it failed, or the time ran out): why, as a clause. */
  | {unread: string}
  /** The list did not return the record: a list may lag behind a write. */
  | {unlisted: true}
  /** Every field the write changed is one the list does not return: it never will tell. */
  | {blind: readonly string[]};

export type ReadBackVerdict =
  | {verdict: 'applied'}
  | {verdict: 'not applied'}
  /**
   * Changed fields that read back neither as sent nor as they were: the server's own form of
   * what was sent, or someone else's change since. Each with the text the server shows.
   */
  | {
      verdict: 'changed';
      shows: ReadonlyArray<{field: string; value: string}>;
    }
  | {verdict: 'cannot tell'; because: CannotTell};

/** What the server holds, against what the write sent and what the record held before it. */
export function judgeReadBack(c: ReadBackCase): ReadBackVerdict {
  if (!c.server) return {verdict: 'cannot tell', because: {unlisted: true}};
  const {rows, blind} = c.server;
  if (c.changed.length === 0) {
    return JSON.stringify(rows) === JSON.stringify(c.sent)
      ? {verdict: 'applied'}
      : {verdict: 'not applied'};
  }
  const first = (record: ReadonlyArray<readonly string[]>) =>
    firstRow(record, c.fields, c.empty);
  const [theirs, ours, was] = [first(rows), first(c.sent), first(c.before)];
  const at = (row: readonly string[], field: string) =>
    row[c.fields.indexOf(field)];
  const told = c.changed.filter(f => !blind.has(f));
  // A write is applied whole or not at all: a changed field still as it was says it was not.
  if (!told.some(f => at(theirs, f) === at(was, f))) {
    const shows = told
      .filter(f => at(theirs, f) !== at(ours, f))
      .map(field => ({field, value: at(theirs, field)}));
    if (shows.length > 0) return {verdict: 'changed', shows};
  }
  if (told.some(f => at(theirs, f) !== at(ours, f))) {
    return {verdict: 'not applied'};
  }
  if (told.length === 0) {
    return {verdict: 'cannot tell', because: {blind: c.changed}};
  }
  return {verdict: 'applied'};
}

/**
 * What is done after a verdict:
 * - `confirm`: the server has it (OK, in History);
 * - `send again`: not applied, sent once more in this run;
 * - `send next time`: read back not applied twice, or reading back never tells: the mark
 *   goes, and the next run sends it directly, as the row says, rather than read it back again;
 * - `keep as sent`: changed by the server or someone else: not sent again (it would overwrite
 *   what the server holds now, and a tracking's sending restarts its link test); the sent
 *   values become the record's;
 * - `read next time`: nothing told yet: the mark stays, and the next run reads it back before
 *   sending anything.
 */
export type ReadBackStep =
  | 'confirm'
  | 'send again'
  | 'send next time'
  | 'keep as sent'
  | 'read next time';

/** The step a verdict leads to; `sentAgain`: this run already sent it again once. */
export function stepAfter(
  verdict: ReadBackVerdict,
  sentAgain: boolean,
): ReadBackStep {
  switch (verdict.verdict) {
    case 'applied':
      return 'confirm';
    case 'not applied':
      return sentAgain ? 'send next time' : 'send again';
    case 'changed':
      return 'keep as sent';
    default:
      return 'blind' in verdict.because ? 'send next time' : 'read next time';
  }
}

/**
 * What is known of a record once the step is taken: the content it is taken to have
 * (`rows`), and, while the write's outcome is still unknown, what it sent (`unknown`: its mark
 * stays, read back before anything is sent again). A write sent again is marked anew as it
 * leaves.
 */
export function marksAfter(
  step: ReadBackStep,
  write: {sent: string[][]; before: string[][]},
): {rows: string[][]; unknown?: string[][]} {
  switch (step) {
    case 'confirm':
    case 'keep as sent':
      return {rows: write.sent};
    case 'read next time':
      return {rows: write.before, unknown: write.sent};
    default:
      return {rows: write.before};
  }
}

/** The fields whose text differs between two one-row records (`empty`: an absent row's). */
export function changedFields(
  fields: readonly string[],
  empty: string,
  a: ReadonlyArray<readonly string[]>,
  b: ReadonlyArray<readonly string[]>,
): string[] {
  const [one, other] = [a, b].map(r => firstRow(r, fields, empty));
  return fields.filter((_, k) => one[k] !== other[k]);
}

/** The row of a one-row record; a record with none (all its fields empty) as empty texts. */
function firstRow(
  record: ReadonlyArray<readonly string[]>,
  fields: readonly string[],
  empty: string,
): readonly string[] {
  return record[0] ?? fields.map(() => empty);
}

/**
 * How History records a write reading back settled: OK once confirmed, ERROR when known not
 * applied, UNKNOWN wherever the add-on cannot say (History says no more than a row).
 */
export function historyOutcomeOf(
  step: Exclude<ReadBackStep, 'send again'>,
  verdict: ReadBackVerdict,
): 'OK' | 'ERROR' | 'UNKNOWN' {
  if (step === 'confirm') return 'OK';
  return verdict.verdict === 'not applied' ? 'ERROR' : 'UNKNOWN';
}
