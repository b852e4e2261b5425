/**
 * What every family of the New Offers rules (offer.ts and its offer-*.ts families) shares:
 * the row's cells, the problems and notes found so far, and the small checks each family
 * words its rules with.
 */
import type {CreateOfferRequest} from '../api/types';
import type {FieldMessages} from './maintain';
import {
  excerpt,
  isBlank,
  parseList,
  parseNumber,
  sizeProblem,
  textOf,
} from './values';

/** The body of POST offer without creative_sets. */
export type OfferBody = Omit<CreateOfferRequest, 'creative_sets'>;

/** Cells of a New Offers row by header. */
export type Cells = Readonly<Record<string, unknown>>;

/** Letters, digits and underscore (offer_name, settlement_event: 4.2). */
const WORD = /^[A-Za-z0-9_]+$/;

/** One row being checked: its cells, and the problems and notes found so far. */
export class Check {
  readonly problems: FieldMessages = {};
  readonly notes: string[] = [];
  constructor(
    readonly cells: Cells,
    /**
     * Why the sheet's reader could not read a cell, where it knows better than a rule (a time
     * the clocks skip in the spreadsheet's zone): field -> reason.
     */
    readonly unread: Readonly<Record<string, string>> = {},
  ) {}

  blank(field: string): boolean {
    return isBlank(this.cells[field]);
  }

  text(field: string): string {
    return textOf(this.cells[field]);
  }

  fail(field: string, reason: string): undefined {
    this.problems[field] ??= `${field} ${reason}`;
    return undefined;
  }

  /** A required cell: undefined (and the problem noted) when blank. */
  present(field: string, reason = 'is required'): unknown {
    if (this.blank(field)) return this.fail(field, reason);
    return this.cells[field];
  }

  /** A cell that must stay empty for this row: the API would not use it. */
  unused(field: string, reason: string): void {
    if (!this.blank(field)) this.fail(field, `${reason}: leave it empty`);
  }

  /** A cell the API ignores or fills itself for this row: not sent, and the row says so. */
  leftOut(field: string, reason: string): void {
    if (!this.blank(field)) this.notes.push(`${field} is left out: ${reason}`);
  }

  /**
   * A comma-separated list of words (enumerations the document does not show: the API judges
   * the values), joined without spaces; undefined (and the problem noted) for an empty item
   * or one with a space inside.
   */
  words(field: string, what: string): string | undefined {
    const items = parseList(this.cells[field]);
    if (items.some(item => item === '' || /\s/.test(item))) {
      return this.fail(
        field,
        `must be ${what} separated by commas, without empty items`,
      );
    }
    return items.join(',');
  }

  /**
   * A filled cell that must be one word of letters, digits and underscore, `length` = [min,
   * max] characters long; undefined (and the problem noted) otherwise.
   */
  word(field: string, length: readonly [number, number]): string | undefined {
    const text = this.text(field);
    const [min, max] = length;
    if (!WORD.test(text)) {
      return this.fail(
        field,
        'may contain only letters, digits and underscore',
      );
    }
    if (text.length < min || text.length > max) {
      return this.fail(
        field,
        `must be ${min} to ${max} characters long (it has ${text.length})`,
      );
    }
    return text;
  }

  number(
    field: string,
    value: unknown,
    decimals: number,
    context = '',
  ): number | undefined {
    const parsed = parseNumber(value);
    if (!parsed)
      return this.fail(field, `must be a number (got ${excerpt(value)})`);
    if (parsed.decimals > decimals) {
      return this.fail(
        field,
        `may have at most ${decimals} decimals${context} (got ${excerpt(value, false)})`,
      );
    }
    const tooLarge = sizeProblem(parsed.value, value);
    if (tooLarge) return this.fail(field, tooLarge);
    return parsed.value;
  }
}
