import {makeEnum} from '../enums';
import {Env} from '../env';
import {FakeUser} from '../session';
import type {Rect} from './a1';
import type {FakeRange} from './range';

export const ProtectionType = makeEnum(['RANGE', 'SHEET'] as const);

/** What Apps Script answers an edit that a protection refuses the user. */
export const PROTECTED_EDIT =
  'You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.';

/**
 * A protected sheet or range. One that only warns lets everyone edit; any other refuses an edit
 * of its cells (values, formulas, clears) by a user who is neither the owner nor one of its
 * editors. A new protection's editors are the document's users, as in Apps Script (Google's
 * own example removes them: `protection.removeEditors(protection.getEditors())`); the owner
 * stays an editor whatever is removed.
 * A range keeps the cells it was made on: rows and columns inserted or deleted later do not
 * move it (Sheets would).
 */
export class FakeProtection {
  private description = '';
  private warningOnly = false;
  private readonly editors: Set<string>;
  /** A sheet protection's exceptions: cells it neither warns about nor refuses. */
  private unprotected: FakeRange[] = [];

  constructor(
    private readonly env: Env,
    private readonly type: keyof typeof ProtectionType,
    private readonly onRemove: (p: FakeProtection) => void,
    /** The block protected; a sheet's protection covers the whole sheet. */
    private range: FakeRange,
  ) {
    this.editors = new Set(env.users);
  }

  /**
   * Whether this protection refuses the current user an edit of any cell of `rect`. Not an
   * Apps Script method: no call.
   */
  refusesEdit(rect: Rect): boolean {
    if (this.warningOnly || this.mayEdit(this.env.user)) return false;
    if (this.type !== 'SHEET') return this.range.overlaps(rect);
    return !this.unprotected.some(r => r.contains(rect));
  }

  addEditor(emailOrUser: unknown): FakeProtection {
    this.env.spreadsheet('Protection.addEditor');
    this.editors.add(emailOf(emailOrUser));
    return this;
  }

  addEditors(emails: unknown[]): FakeProtection {
    this.env.spreadsheet('Protection.addEditors');
    for (const e of emails) this.editors.add(emailOf(e));
    return this;
  }

  removeEditor(emailOrUser: unknown): FakeProtection {
    this.env.spreadsheet('Protection.removeEditor');
    this.editors.delete(emailOf(emailOrUser));
    return this;
  }

  removeEditors(emailsOrUsers: unknown[]): FakeProtection {
    this.env.spreadsheet('Protection.removeEditors');
    for (const e of emailsOrUsers) this.editors.delete(emailOf(e));
    return this;
  }

  /** The owner first, then the editors added or kept. */
  getEditors(): FakeUser[] {
    this.env.spreadsheet('Protection.getEditors');
    const emails = new Set([this.env.owner, ...this.editors]);
    return this.env.realm.array([...emails].map(e => new FakeUser(e)));
  }

  canEdit(): boolean {
    this.env.spreadsheet('Protection.canEdit');
    return this.mayEdit(this.env.user);
  }

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
    const covers =
      this.type === 'SHEET'
        ? !this.unprotected.some(r => r.covers(row, column))
        : this.range.covers(row, column);
    return this.warningOnly && covers ? this.description : undefined;
  }

  /**
   * Apps Script: "Unprotects the given array of ranges within a protected sheet"; a range
   * protection throws. The ranges keep the cells they were made on (as `setRange`'s).
   */
  setUnprotectedRanges(ranges: FakeRange[]): FakeProtection {
    this.env.spreadsheet('Protection.setUnprotectedRanges');
    if (this.type !== 'SHEET') {
      throw new Error(
        'Unprotected ranges can only be set on a sheet protection.',
      );
    }
    this.unprotected = [...ranges];
    return this;
  }

  getUnprotectedRanges(): FakeRange[] {
    this.env.spreadsheet('Protection.getUnprotectedRanges');
    return this.env.realm.array([...this.unprotected]);
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

  private mayEdit(user: string): boolean {
    return user === this.env.owner || this.editors.has(user);
  }
}

/** An editor given as an email or as a User (Session.getEffectiveUser()). */
function emailOf(emailOrUser: unknown): string {
  return emailOrUser instanceof FakeUser
    ? emailOrUser.getEmail()
    : String(emailOrUser);
}
