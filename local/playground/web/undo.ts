/**
 * The person's own edits in the grid, for Ctrl+Z and Ctrl+Y: each step is the cells one action
 * changed (a value typed, a paste, a Delete), with what they held before and after, as the
 * formula bar shows them (typed back, that text gives the same value). The add-on's own writes
 * are not here, as in Sheets, where undo takes back only what you did.
 */

export interface CellChange {
  a1: string;
  before: string;
  after: string;
}

export interface EditStep {
  sheet: string;
  changes: CellChange[];
}

/** Steps kept; older ones are forgotten. */
const MAX_STEPS = 100;

export class EditHistory {
  private readonly done: EditStep[] = [];
  private readonly undone: EditStep[] = [];

  /** A new edit: it can be undone, and what was undone can no longer be redone. */
  record(step: EditStep): void {
    const changes = step.changes.filter(c => c.before !== c.after);
    if (changes.length === 0) return;
    this.done.push({sheet: step.sheet, changes});
    if (this.done.length > MAX_STEPS) this.done.shift();
    this.undone.length = 0;
  }

  /** The last step taken back: its cells are to be typed back to `before`. */
  undo(): EditStep | undefined {
    const step = this.done.pop();
    if (step) this.undone.push(step);
    return step;
  }

  /** Forgets every step: the cells they name are no longer where they were. */
  forget(): void {
    this.done.length = 0;
    this.undone.length = 0;
  }

  /** The last undone step again: its cells are to be typed to `after`. */
  redo(): EditStep | undefined {
    const step = this.undone.pop();
    if (step) this.done.push(step);
    return step;
  }
}
