/**
 * What the add-on shows besides the sidebar: toasts (in a strip below the grid, covering no
 * row), the "Running script" note,
 * and alerts and prompts, which hold the running script until a button is clicked.
 */
import type {DialogAnswer, DialogQuestion} from '../protocol';
import {byId, el} from './dom';

const BUTTON_LABELS: Record<string, string> = {
  OK: 'OK',
  CANCEL: 'Cancel',
  YES: 'Yes',
  NO: 'No',
};

export type Tone = 'ok' | 'info' | 'error';

export function toast(
  title: string,
  message: string,
  seconds: number,
  tone: Tone = 'ok',
): void {
  const close = el('button', {type: 'button', 'aria-label': 'Close'}, '×');
  const node = el(
    'div',
    {class: `toast ${tone}`, role: tone === 'error' ? 'alert' : 'status'},
    el('div', {class: 'toast-title'}, title),
    el('div', {class: 'toast-message'}, message),
    close,
  );
  close.addEventListener('click', () => node.remove());
  byId('toasts').append(node);
  setTimeout(() => node.remove(), seconds * 1000);
}

/** The dark note at the bottom: what is running, or that the server went away. */
export function showNote(text: string | null): void {
  const note = byId('running');
  note.hidden = text === null;
  note.textContent = text ?? '';
}

/** The alert or prompt the add-on waits on, in a modal dialog; one at a time. */
export class Dialogs {
  private readonly dialog = byId<HTMLDialogElement>('dialog');
  private shown: number | null = null;
  /** Ids grow: a question answered may still be reported until the server has the answer. */
  private answered = 0;

  constructor(private readonly answer: (a: DialogAnswer) => Promise<void>) {
    // Esc would close the dialog without an answer: the script would wait on.
    this.dialog.addEventListener('cancel', e => e.preventDefault());
  }

  update(question: DialogQuestion | null): void {
    if (question === null) {
      if (this.shown !== null) this.close();
      return;
    }
    if (question.id === this.shown || question.id <= this.answered) return;
    this.shown = question.id;
    byId('dialog-title').textContent = question.title;
    byId('dialog-prompt').textContent = question.prompt;
    const input = byId<HTMLInputElement>('dialog-input');
    input.hidden = question.kind !== 'prompt';
    input.value = '';
    const buttons = question.buttons.map(b => {
      const button = el('button', {type: 'button'}, BUTTON_LABELS[b] ?? b);
      button.addEventListener('click', () => {
        this.answered = question.id;
        this.close();
        void this.answer({id: question.id, button: b, text: input.value});
      });
      return button;
    });
    input.onkeydown = e => {
      if (e.key === 'Enter') buttons[0].click();
    };
    byId('dialog-buttons').replaceChildren(...buttons);
    this.dialog.showModal();
    (question.kind === 'prompt' ? input : buttons[0]).focus();
  }

  private close(): void {
    this.shown = null;
    if (this.dialog.open) this.dialog.close();
  }
}

/**
 * Sheets' question before an edit of cells under a warning-only protection, with the
 * protections' descriptions; resolves to whether the person chose OK.
 */
export function confirmProtectedEdit(descriptions: string[]): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('protected-dialog');
  byId('protected-description').textContent = descriptions
    .filter(Boolean)
    .join('\n');
  // Esc closes the dialog without a value: it must not read as an earlier OK.
  dialog.returnValue = '';
  dialog.showModal();
  byId('protected-cancel').focus();
  return new Promise(resolve => {
    dialog.addEventListener(
      'close',
      () => resolve(dialog.returnValue === 'ok'),
      {once: true},
    );
  });
}
