import {Env} from '../env';
import type {Rect} from './a1';
import type {FakeRange} from './range';

/** Sheets' "filter by values": the shown values whose rows the filter hides. */
export class FakeFilterCriteria {
  constructor(
    private readonly env: Env,
    private readonly hidden: readonly string[],
  ) {}

  /** A builder's product is local, as the data validation builder's: no call. */
  getHiddenValues(): string[] {
    return this.env.realm.array([...this.hidden]);
  }

  /** Whether a cell showing `shown` hides its row. Not an Apps Script method: no call. */
  hidesValue(shown: string): boolean {
    return this.hidden.includes(shown);
  }
}

/** SpreadsheetApp.newFilterCriteria(): local, as the data validation builder. */
export class FakeFilterCriteriaBuilder {
  private hidden: string[] = [];

  constructor(private readonly env: Env) {}

  setHiddenValues(values: unknown): FakeFilterCriteriaBuilder {
    if (!Array.isArray(values)) this.env.fail('Invalid argument: values');
    this.hidden = (values as unknown[]).map(String);
    return this;
  }

  build(): FakeFilterCriteria {
    return new FakeFilterCriteria(this.env, this.hidden);
  }
}

/**
 * A sheet's filter (Range.createFilter): its range's first row holds the headers, and each
 * row below is hidden while a cell of it shows a value its column's criteria hide. Hidden
 * rows keep their values: getValues still reads them, as in Sheets. Like a protected range,
 * the filter keeps the cells it was made on when rows are inserted or deleted (Sheets would
 * move it).
 */
export class FakeFilter {
  private readonly criteria = new Map<number, FakeFilterCriteria>();

  constructor(
    private readonly env: Env,
    private readonly range: FakeRange,
    private readonly onRemove: () => void,
  ) {}

  getRange(): FakeRange {
    this.env.spreadsheet('Filter.getRange');
    return this.range;
  }

  setColumnFilterCriteria(
    columnPosition: unknown,
    filterCriteria: unknown,
  ): FakeFilter {
    this.env.spreadsheet('Filter.setColumnFilterCriteria');
    const column = this.column(columnPosition);
    if (filterCriteria === null) this.criteria.delete(column);
    else if (filterCriteria instanceof FakeFilterCriteria)
      this.criteria.set(column, filterCriteria);
    else this.env.fail('Invalid argument: filterCriteria');
    return this;
  }

  removeColumnFilterCriteria(columnPosition: unknown): FakeFilter {
    this.env.spreadsheet('Filter.removeColumnFilterCriteria');
    this.criteria.delete(this.column(columnPosition));
    return this;
  }

  getColumnFilterCriteria(columnPosition: unknown): FakeFilterCriteria | null {
    this.env.spreadsheet('Filter.getColumnFilterCriteria');
    return this.criteria.get(this.column(columnPosition)) ?? null;
  }

  remove(): void {
    this.env.spreadsheet('Filter.remove');
    this.onRemove();
  }

  /**
   * Whether the filter hides sheet row `row`, a cell's shown value given by `shown`. Not an
   * Apps Script method: no call.
   */
  hides(row: number, shown: (row: number, column: number) => string): boolean {
    const {row: header, numRows} = this.range.rectangle();
    if (row <= header || row >= header + numRows) return false;
    for (const [column, criteria] of this.criteria) {
      if (criteria.hidesValue(shown(row, column))) return true;
    }
    return false;
  }

  /** The filter's block. Not an Apps Script method: no call. */
  block(): Rect {
    return this.range.rectangle();
  }

  /** The sheet columns that have criteria. Not an Apps Script method: no call. */
  filteredColumns(): number[] {
    return [...this.criteria.keys()].sort((a, b) => a - b);
  }

  private column(position: unknown): number {
    const {column, numColumns} = this.range.rectangle();
    if (
      typeof position !== 'number' ||
      !Number.isInteger(position) ||
      position < column ||
      position >= column + numColumns
    ) {
      this.env.fail('Invalid argument: columnPosition');
    }
    return position as number;
  }
}
