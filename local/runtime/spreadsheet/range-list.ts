import type {FakeRange} from './range';
import type {FakeSheet} from './sheet';

/**
 * Sheet.getRangeList: ranges of one sheet formatted by one call. Only what the add-on uses:
 * setBackground, one queued write carrying the colour once per range (its A1 notation and the
 * value), whatever the ranges' cells.
 */
export class FakeRangeList {
  constructor(
    private readonly sheet: FakeSheet,
    private readonly ranges: readonly FakeRange[],
  ) {}

  setBackground(color: string | null): FakeRangeList {
    this.sheet.call('RangeList.setBackground', this.ranges.length);
    for (const range of this.ranges) range.backgroundOfList(color);
    return this;
  }

  toString(): string {
    return 'RangeList';
  }
}
