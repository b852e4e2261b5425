import {makeEnum} from '../enums';
import {Env} from '../env';
import type {FakeRange} from './range';

export const ProtectionType = makeEnum(['RANGE', 'SHEET'] as const);

/**
 * A protected sheet or range; recorded, not enforced (the add-on's user owns the document).
 * A range keeps the cells it was made on: rows and columns inserted or deleted later do not
 * move it (Sheets would).
 */
export class FakeProtection {
  private description = '';
  private warningOnly = false;

  constructor(
    private readonly env: Env,
    private readonly type: keyof typeof ProtectionType,
    private readonly onRemove: (p: FakeProtection) => void,
    /** The block protected; a sheet's protection covers the whole sheet. */
    private range: FakeRange,
  ) {}

  getRange(): FakeRange {
    this.env.spreadsheet('Protection.getRange');
    return this.range;
  }

  setRange(range: FakeRange): FakeProtection {
    this.env.spreadsheet('Protection.setRange');
    this.range = range;
    return this;
  }

  /**
   * The description Sheets' "Heads up!" dialog would precede an edit of this cell with, when
   * the protection only warns and covers it; undefined otherwise. Not an Apps Script method.
   */
  warningAt(row: number, column: number): string | undefined {
    const covers = this.type === 'SHEET' || this.range.covers(row, column);
    return this.warningOnly && covers ? this.description : undefined;
  }

  getProtectionType() {
    this.env.spreadsheet('Protection.getProtectionType');
    return ProtectionType[this.type];
  }

  setDescription(description: string): FakeProtection {
    this.env.spreadsheet('Protection.setDescription');
    this.description = String(description);
    return this;
  }

  getDescription(): string {
    this.env.spreadsheet('Protection.getDescription');
    return this.description;
  }

  setWarningOnly(warningOnly: boolean): FakeProtection {
    this.env.spreadsheet('Protection.setWarningOnly');
    this.warningOnly = Boolean(warningOnly);
    return this;
  }

  isWarningOnly(): boolean {
    this.env.spreadsheet('Protection.isWarningOnly');
    return this.warningOnly;
  }

  remove(): void {
    this.env.spreadsheet('Protection.remove');
    this.onRemove(this);
  }
}
