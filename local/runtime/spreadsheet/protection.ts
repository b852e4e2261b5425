import {makeEnum} from '../enums';
import {Env} from '../env';
import {Rect} from './a1';

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
    /** The protected cells of a RANGE protection; a SHEET one covers every cell. */
    private readonly area?: Rect,
  ) {}

  /**
   * The description Sheets' "Heads up!" dialog would precede an edit of this cell with, when
   * the protection only warns and covers it; undefined otherwise. Not an Apps Script method.
   */
  warningAt(row: number, column: number): string | undefined {
    const a = this.area;
    const covers =
      !a ||
      (row >= a.row &&
        row < a.row + a.numRows &&
        column >= a.column &&
        column < a.column + a.numColumns);
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
