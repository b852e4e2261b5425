/**
 * Alerts and prompts answered by a person in the page. In Sheets, `Ui.alert` and `Ui.prompt`
 * block the execution until the user clicks a button. The add-on runs in the sidebar host's
 * worker thread, so the worker writes the question into shared memory and waits; the server
 * (main thread) shows it to the page and writes the answer back.
 */
import type {DialogAnswer, DialogQuestion} from './protocol';

const IDLE = 0;
const ASKED = 1;
const ANSWERED = 2;
/** Header: state, payload length, last question id. */
const HEADER_BYTES = 12;
const PAYLOAD_BYTES = 64 * 1024;
/** A dialog nobody answers (the page was closed) is dismissed after this long. */
export const DIALOG_TIMEOUT_MS = 10 * 60 * 1000;
/** How often a waiting worker serves what runs beside it (the page's looks at the sheets). */
const SERVE_EVERY_MS = 20;

export function createDialogMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + PAYLOAD_BYTES);
}

class Memory {
  private readonly header: Int32Array;
  private readonly payload: Uint8Array;

  constructor(buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.payload = new Uint8Array(buffer, HEADER_BYTES, PAYLOAD_BYTES);
  }

  get state(): number {
    return Atomics.load(this.header, 0);
  }

  nextId(): number {
    return Atomics.add(this.header, 2, 1) + 1;
  }

  write(value: unknown, state: number): void {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    if (bytes.length > PAYLOAD_BYTES)
      throw new Error(`a dialog of ${bytes.length} bytes does not fit`);
    this.payload.set(bytes);
    Atomics.store(this.header, 1, bytes.length);
    Atomics.store(this.header, 0, state);
    Atomics.notify(this.header, 0);
  }

  read<T>(): T {
    const length = Atomics.load(this.header, 1);
    return JSON.parse(
      new TextDecoder().decode(this.payload.slice(0, length)),
    ) as T;
  }

  /**
   * Waits while the state is `state`, at most `ms`, calling `meanwhile` every few
   * milliseconds; false when the time ran out.
   */
  waitWhile(state: number, ms: number, meanwhile: () => void): boolean {
    const deadline = Date.now() + ms;
    while (this.state === state) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.header, 0, state, Math.min(left, SERVE_EVERY_MS));
      meanwhile();
    }
    return true;
  }

  reset(): void {
    Atomics.store(this.header, 0, IDLE);
  }
}

/** The dialog's text, cut so that the question always fits in shared memory. */
function fitting(text: string): string {
  const limit = PAYLOAD_BYTES / 8;
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/**
 * The worker's half: asks and blocks until the page answers (or the timeout dismisses it),
 * serving meanwhile what runs beside the execution: in Sheets the grid behind an alert shows
 * what the add-on wrote before it, and the sidebar keeps polling.
 */
export class DialogAsker {
  private readonly memory: Memory;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly serveBeside: () => void,
    private readonly timeoutMs = DIALOG_TIMEOUT_MS,
  ) {
    this.memory = new Memory(buffer);
  }

  ask(question: Omit<DialogQuestion, 'id'>): {button: string; text: string} {
    const id = this.memory.nextId();
    this.memory.write(
      {
        ...question,
        id,
        title: fitting(question.title),
        prompt: fitting(question.prompt),
      },
      ASKED,
    );
    const answered = this.memory.waitWhile(
      ASKED,
      this.timeoutMs,
      this.serveBeside,
    );
    const answer = answered
      ? this.memory.read<DialogAnswer>()
      : {id, button: question.buttons[question.buttons.length - 1], text: ''};
    this.memory.reset();
    return {button: answer.button, text: answer.text};
  }
}

/** The server's half: the question waiting, and its answer. */
export class DialogDesk {
  private readonly memory: Memory;

  constructor(buffer: SharedArrayBuffer) {
    this.memory = new Memory(buffer);
  }

  pending(): DialogQuestion | null {
    return this.memory.state === ASKED
      ? this.memory.read<DialogQuestion>()
      : null;
  }

  /** Answers the question waiting, if `answer` is for it and names one of its buttons. */
  answer(answer: DialogAnswer): string | null {
    const question = this.pending();
    if (!question || question.id !== answer.id)
      return 'That dialog is no longer open.';
    if (!question.buttons.includes(answer.button))
      return `${answer.button} is not a button of this dialog.`;
    this.memory.write(
      {id: answer.id, button: answer.button, text: String(answer.text ?? '')},
      ANSWERED,
    );
    return null;
  }

  /** Dismisses an open dialog (its last button: Cancel, No or OK), so the worker can stop. */
  dismiss(): void {
    const question = this.pending();
    if (question) {
      this.answer({
        id: question.id,
        button: question.buttons[question.buttons.length - 1],
        text: '',
      });
    }
  }
}
