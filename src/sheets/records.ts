/**
 * A sheet decoded once into records: for each record id, the rows it came from, its editable
 * content now and as last pulled, and one kind that says what a job may do with it. Jobs
 * decide on these records (pure functions a test calls without a sheet) and never ask the
 * table for cells again to tell an edit.
 */
import {checkMaintainedBy} from '../rules/maintain';
import type {CodecContext} from './codec';
import {
  EMPTY,
  EditableRow,
  contentOf,
  decodeEditable,
  editableColumns,
  groupRows,
  missingAccountMessage,
  missingIdMessage,
  sameContent,
} from './rows';
import {ACCOUNT, accountCell, keyParts} from './accounts';
import {ReadOnlyEdit, readOnlyEdits} from './read-only';
import {RecordState, SheetState, blankAccountOf, pulledAs} from './pulled';
import {SYNC_MESSAGE, SYNC_STATUS} from './schema';
import {Table, cellOf, sheetRow} from './table';

/** What a record is to a push. */
export type RecordKind =
  /** As last pulled. */
  | 'unchanged'
  /** Edited since the last pull: a push sends it. */
  | 'changed'
  /** As the API refused it at the last push, with a verdict on the values: not sent again. */
  | 'refusedBefore'
  /** A row without a readable id. */
  | 'noId'
  /** A row without an account (an empty `account` cell). */
  | 'noAccount'
  /** An id the last refresh did not list. */
  | 'unknownId'
  /** An id another account pulled: the row's `account` cell was changed. */
  | 'otherAccount'
  /** A one-row record in several rows. */
  | 'duplicate'
  /** maintain_by AM: the account manager's, view only. */
  | 'managed';

/** A row's status cells as a job read them. */
export interface RowSaid {
  status: string;
  message: string;
}

export interface SheetRecord {
  kind: RecordKind;
  /** Whose record it is ('' the main account): its requests are signed with its keys. */
  account: string;
  /** Canonical id; '' for a row without one. */
  id: string;
  /** Its identity, account and id (accounts.ts recordKey): its key in the state. */
  key: string;
  /** Data rows, in sheet order. */
  rows: number[];
  /** What each row's status cells say now, in the order of `rows`. */
  said: RowSaid[];
  /**
   * Each row's editable cells decoded once, in the order of `rows`: what a push builds and
   * checks its request from (empty for a row without an id or an account).
   */
  decoded: EditableRow[];
  /**
   * Each row's values typed into read-only columns since they were last written from the
   * server (read-only.ts), in the order of `rows`: empty where none, or where no print was
   * kept.
   */
  readOnly: ReadOnlyEdit[][];
  /** Editable content now (rows.ts contentOf). */
  content: string[][];
  /** What was last pulled (absent for noId, unknownId, otherAccount). */
  base?: RecordState;
  /** Editable fields whose text differs from the pull (one-row records). */
  edited: string[];
  /** Why nothing may be sent, for the kinds that say so. */
  reason?: string;
  /** What a push sent of it whose outcome is unknown (DecodeOptions.out). */
  out?: string[][];
  /** The push before lost its answer for exactly this content: read it back first. */
  outcomeUnknown?: boolean;
}

export interface DecodeOptions {
  /** How messages name an account. */
  label(account: string): string;
  /** The menu title of the refresh that fills the sheet. */
  refreshTitle: string;
  /**
   * What a push sent of each record (by key) whose outcome is unknown: the job takes it from
   * its outbox (state/outbox.ts).
   */
  out?: ReadonlyMap<string, string[][]>;
}

/** Every record of the sheet, in order of first appearance; rows awaiting a create are not. */
export function decodeRecords<S>(
  table: Table<S>,
  state: SheetState,
  context: CodecContext,
  options: DecodeOptions,
): SheetRecord[] {
  const {schema} = table;
  const groups = groupRows(table, context, blankAccountOf(state));
  const owners = ownersOf(state);
  const records: SheetRecord[] = [];
  const refused = (
    kind: RecordKind,
    key: string,
    rows: number[],
    reason: string,
    base?: RecordState,
  ): SheetRecord => ({
    kind,
    ...keyParts(key),
    key,
    rows,
    said: saidOf(rows),
    decoded: key === '' ? [] : rows.map(decodedOf),
    readOnly: readOnlyOf(rows, base),
    content: [],
    edited: [],
    reason,
    base,
  });
  const decodedOf = (row: number) => decodeEditable(table, row, context);
  const present = (header: string) => table.position.has(header);
  const readOnlyOf = (rows: readonly number[], pulled?: RecordState) =>
    rows.map(row =>
      pulled?.readOnly === undefined
        ? []
        : readOnlyEdits(
            schema,
            pulled.readOnly,
            header => cellOf(table, row, header),
            present,
          ),
    );
  const saidOf = (rows: readonly number[]): RowSaid[] =>
    rows.map(row => ({
      status: String(cellOf(table, row, SYNC_STATUS)),
      message: String(cellOf(table, row, SYNC_MESSAGE)),
    }));
  for (const {index, key, awaits, noAccount} of groups.order) {
    if (noAccount) {
      records.push(
        refused('noAccount', '', [index], missingAccountMessage(table)),
      );
    } else if (key === null && !awaits) {
      records.push(
        refused('noId', '', [index], missingIdMessage(table, index)),
      );
    }
  }
  for (const [key, rows] of groups.byKey) {
    const pulled = state.records[key];
    const {account, id} = keyParts(key);
    if (!pulled) {
      const owner = owners.get(id);
      records.push(
        owner === undefined
          ? refused(
              'unknownId',
              key,
              rows,
              `${schema.id} ${id} was not in the last refresh of ${schema.name}${state.accounts.includes(account) ? '' : ` as the ${options.label(account)}`}: check the id and the ${ACCOUNT} cell, or run "${options.refreshTitle}" first.`,
            )
          : refused(
              'otherAccount',
              key,
              rows,
              `${ACCOUNT} ${accountCell(account)}: ${schema.id} ${id} is the ${options.label(owner)}'s record, as last refreshed; a row's account cannot be changed (its requests are signed with its owner's keys). Type ${accountCell(owner)} back in ${ACCOUNT}. Nothing was sent.`,
            ),
      );
      continue;
    }
    if (!schema.rowKey && rows.length > 1) {
      records.push(
        refused(
          'duplicate',
          key,
          rows,
          `${schema.id} ${id} is in rows ${rows.map(sheetRow).join(', ')}: keep one row per ${schema.id}.`,
          pulled,
        ),
      );
      continue;
    }
    const decoded = rows.map(decodedOf);
    const texts = decoded.map(d => d.texts);
    const content = contentOf(texts);
    const base = pulledAs(pulled, content);
    const edited = editedFields(table, texts, base);
    const record = {
      account,
      id,
      key,
      rows,
      said: saidOf(rows),
      decoded,
      readOnly: readOnlyOf(rows, pulled),
      content,
      base,
      edited,
      out: options.out?.get(key),
    };
    if (sameContent(content, base.rows)) {
      records.push({...record, kind: 'unchanged'});
    } else if (sameContent(content, base.refused)) {
      records.push({...record, kind: 'refusedBefore'});
    } else {
      const am = checkMaintainedBy(base.facts?.maintain_by).maintain_by;
      records.push(
        am
          ? {
              ...record,
              kind: 'managed',
              reason: `maintain_by: ${am}. Nothing was sent.`,
            }
          : {
              ...record,
              kind: 'changed',
              outcomeUnknown: sameContent(content, record.out),
            },
      );
    }
  }
  return records;
}

/** The one account that pulled each id, where only one did. */
function ownersOf(state: SheetState): Map<string, string> {
  const owners = new Map<string, string>();
  const twice = new Set<string>();
  for (const key of Object.keys(state.records)) {
    const {account, id} = keyParts(key);
    if (owners.has(id)) twice.add(id);
    owners.set(id, account);
  }
  for (const id of twice) owners.delete(id);
  return owners;
}

/** The editable fields of a one-row record whose text differs from what was pulled. */
function editedFields<S>(
  table: Table<S>,
  texts: string[][],
  base: RecordState,
): string[] {
  if (table.schema.rowKey || texts.length !== 1) return [];
  const pulled = base.rows[0];
  return editableColumns(table)
    .filter((_, k) => (pulled?.[k] ?? EMPTY) !== texts[0][k])
    .map(c => c.header);
}
