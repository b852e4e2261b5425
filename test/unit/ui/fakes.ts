/** Fakes of the user-interface and trigger ports, recording what the add-on did. */
import type {
  MenuEntry,
  TriggerTiming,
  Triggers,
  UserInterface,
} from '../../../src/platform/ports';

export type Shown =
  | {kind: 'toast' | 'alert'; title: string; message: string}
  | {kind: 'prompt' | 'confirm'; title: string; message: string}
  | {kind: 'sidebar'; file: string; title: string}
  | {kind: 'dialog'; file: string; title: string; width: number; height: number}
  | {kind: 'select'; sheet: string; row: number};

export class RecordingUi implements UserInterface {
  menu: readonly MenuEntry[] | undefined;
  readonly shown: Shown[] = [];
  /** What the next prompts answer (null: the user cancelled). */
  readonly answers: Array<string | null> = [];
  sheets = new Set(['Budgets', 'Offers']);

  buildAddonMenu(entries: readonly MenuEntry[]): void {
    this.menu = entries;
  }
  toast(title: string, message: string): void {
    this.shown.push({kind: 'toast', title, message});
  }
  alert(title: string, message: string): void {
    this.shown.push({kind: 'alert', title, message});
  }
  /** What the next confirmations answer (null: no one can answer). */
  readonly confirmations: Array<boolean | null> = [];
  confirm(title: string, message: string): boolean | null {
    this.shown.push({kind: 'confirm', title, message});
    return this.confirmations.length > 0 ? this.confirmations.shift()! : null;
  }
  prompt(title: string, message: string): string | null {
    this.shown.push({kind: 'prompt', title, message});
    return this.answers.shift() ?? null;
  }
  showSidebar(file: string, title: string): void {
    this.shown.push({kind: 'sidebar', file, title});
  }
  showDialog(file: string, title: string, width: number, height: number): void {
    this.shown.push({kind: 'dialog', file, title, width, height});
  }
  selectedRows(): number[] {
    return [];
  }
  selectRow(sheet: string, row: number): boolean {
    if (!this.sheets.has(sheet)) return false;
    this.shown.push({kind: 'select', sheet, row});
    return true;
  }
}

export class RecordingTriggers implements Triggers {
  readonly installed = new Map<
    string,
    {handler: string; timing: TriggerTiming}
  >();
  private next = 1;

  find(handler: string): string[] {
    return [...this.installed]
      .filter(([, t]) => t.handler === handler)
      .map(([id]) => id);
  }
  remove(id: string): void {
    this.installed.delete(id);
  }
  createTimeDriven(handler: string, timing: TriggerTiming): string {
    const id = `t${this.next++}`;
    this.installed.set(id, {handler, timing});
    return id;
  }
  list(): Array<{handler: string; timing: TriggerTiming}> {
    return [...this.installed.values()];
  }
}

/** A job summary with the given counts, as the jobs build it. */
export function summary(
  counts: Partial<import('../../../src/jobs/run').JobSummary> = {},
): import('../../../src/jobs/run').JobSummary {
  return {
    job: 'pushBudgets',
    account: 'main account',
    ok: 0,
    invalid: 0,
    error: 0,
    skipped: 0,
    remaining: 0,
    dryRun: false,
    message: '',
    problems: [],
    ...counts,
  };
}
