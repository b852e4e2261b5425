import {enumName, makeEnum} from './enums';
import {Env} from './env';

export const Button = makeEnum(['CLOSE', 'OK', 'CANCEL', 'YES', 'NO'] as const);
export const ButtonSet = makeEnum([
  'OK',
  'OK_CANCEL',
  'YES_NO',
  'YES_NO_CANCEL',
] as const);

type ButtonName = keyof typeof Button;
type ButtonSetName = keyof typeof ButtonSet;

const BUTTONS_OF: Record<ButtonSetName, ButtonName[]> = {
  OK: ['OK'],
  OK_CANCEL: ['OK', 'CANCEL'],
  YES_NO: ['YES', 'NO'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
};

export type MenuEntry =
  | {kind: 'item'; caption: string; functionName: string}
  | {kind: 'separator'}
  | {kind: 'submenu'; menu: MenuRecord};

export interface MenuRecord {
  name: string;
  /** Built with createAddonMenu (shown under Extensions > the add-on's name). */
  addon: boolean;
  entries: MenuEntry[];
}

/** Something the add-on showed the user, in order. */
export type UiEvent =
  | {
      kind: 'toast';
      message: string;
      title: string;
      timeoutSeconds: number;
      atMs: number;
    }
  | {
      kind: 'alert';
      title: string;
      prompt: string;
      buttons: ButtonSetName;
      response: ButtonName;
      atMs: number;
      /**
       * Spreadsheet writes the script had queued and not sent when the alert opened: in Sheets
       * they are not on screen while it is open (SpreadsheetApp.flush first sends them).
       */
      writesUnsent: boolean;
    }
  | {
      kind: 'prompt';
      title: string;
      prompt: string;
      buttons: ButtonSetName;
      response: ButtonName;
      text: string;
      atMs: number;
    }
  | {kind: 'sidebar'; title: string; html: string; atMs: number}
  | {
      kind: 'dialog';
      modal: boolean;
      title: string;
      html: string;
      width?: number;
      height?: number;
      atMs: number;
    };

/** What the user saw (menus, toasts, alerts, sidebars) and the answers tests queue for dialogs. */
export class UiLog {
  /** Menus currently on the UI (addToUi replaces a menu of the same name). */
  readonly menus: MenuRecord[] = [];
  readonly events: UiEvent[] = [];
  private readonly alertAnswers: ButtonName[] = [];
  private readonly promptAnswers: {button: ButtonName; text: string}[] = [];

  /** The button the next alert returns (by default the first of its button set). */
  answerNextAlert(button: ButtonName): void {
    this.alertAnswers.push(button);
  }

  answerNextPrompt(text: string, button: ButtonName = 'OK'): void {
    this.promptAnswers.push({button, text});
  }

  toasts() {
    return this.events.filter(e => e.kind === 'toast');
  }

  alerts() {
    return this.events.filter(e => e.kind === 'alert');
  }

  /** The last sidebar shown, if any. */
  sidebar() {
    return this.events.filter(e => e.kind === 'sidebar').pop();
  }

  /** The function a menu item calls, found by its caption (in add-on menus and their submenus). */
  functionFor(caption: string): string | undefined {
    const search = (entries: MenuEntry[]): string | undefined => {
      for (const e of entries) {
        if (e.kind === 'item' && e.caption === caption) return e.functionName;
        if (e.kind === 'submenu') {
          const found = search(e.menu.entries);
          if (found) return found;
        }
      }
      return undefined;
    };
    for (const menu of this.menus) {
      const found = search(menu.entries);
      if (found) return found;
    }
    return undefined;
  }

  nextAlert(buttons: ButtonSetName): ButtonName {
    return this.answer(
      this.alertAnswers.shift() ?? BUTTONS_OF[buttons][0],
      buttons,
    );
  }

  nextPrompt(buttons: ButtonSetName): {button: ButtonName; text: string} {
    const a = this.promptAnswers.shift() ?? {
      button: BUTTONS_OF[buttons][0],
      text: '',
    };
    return {button: this.answer(a.button, buttons), text: a.text};
  }

  private answer(button: ButtonName, buttons: ButtonSetName): ButtonName {
    if (!BUTTONS_OF[buttons].includes(button)) {
      throw new Error(
        `queued answer ${button} is not a button of ButtonSet.${buttons}`,
      );
    }
    return button;
  }
}

/** What showSidebar and dialogs accept: an HtmlOutput (or anything with getContent). */
interface Showable {
  getContent(): string;
  getTitle?(): string;
  getWidth?(): number | undefined;
  getHeight?(): number | undefined;
}

class FakeMenu {
  private readonly record: MenuRecord;

  constructor(
    private readonly env: Env,
    private readonly log: UiLog,
    name: string,
    addon: boolean,
  ) {
    this.record = {name, addon, entries: []};
  }

  addItem(caption: string, functionName: string): FakeMenu {
    this.env.call('Ui', 'Menu.addItem');
    if (
      typeof caption !== 'string' ||
      typeof functionName !== 'string' ||
      functionName === ''
    ) {
      this.env.fail(
        "The parameters don't match the method signature for Menu.addItem.",
      );
    }
    this.record.entries.push({kind: 'item', caption, functionName});
    return this;
  }

  addSeparator(): FakeMenu {
    this.env.call('Ui', 'Menu.addSeparator');
    this.record.entries.push({kind: 'separator'});
    return this;
  }

  addSubMenu(menu: FakeMenu): FakeMenu {
    this.env.call('Ui', 'Menu.addSubMenu');
    if (!(menu instanceof FakeMenu)) this.env.fail('Invalid argument: menu');
    this.record.entries.push({kind: 'submenu', menu: menu.record});
    return this;
  }

  addToUi(): void {
    this.env.call('Ui', 'Menu.addToUi');
    const at = this.log.menus.findIndex(m => m.name === this.record.name);
    if (at >= 0) this.log.menus.splice(at, 1, this.record);
    else this.log.menus.push(this.record);
  }
}

class FakePromptResponse {
  constructor(
    private readonly button: ButtonName,
    private readonly text: string,
  ) {}

  getResponseText(): string {
    return this.text;
  }

  getSelectedButton() {
    return Button[this.button];
  }
}

/** SpreadsheetApp.getUi(). */
export class FakeUi {
  readonly Button = Button;
  readonly ButtonSet = ButtonSet;

  constructor(
    private readonly env: Env,
    private readonly log: UiLog,
    private readonly addonName: string,
    /** Called while an alert is open, before its answer returns (the collaborator acts). */
    private readonly alertOpen: () => void = () => {},
  ) {}

  createMenu(caption: string): FakeMenu {
    this.env.call('Ui', 'Ui.createMenu');
    return new FakeMenu(this.env, this.log, String(caption), false);
  }

  createAddonMenu(): FakeMenu {
    this.env.call('Ui', 'Ui.createAddonMenu');
    return new FakeMenu(this.env, this.log, this.addonName, true);
  }

  /** alert(prompt), alert(prompt, buttons) or alert(title, prompt, buttons). */
  alert(...args: unknown[]) {
    this.env.call('Ui', 'Ui.alert');
    const {title, prompt, buttons} = this.dialogArgs(args);
    const response = this.log.nextAlert(buttons);
    this.log.events.push({
      kind: 'alert',
      title,
      prompt,
      buttons,
      response,
      atMs: this.env.clock.now(),
      writesUnsent: this.env.writesWaiting,
    });
    this.alertOpen();
    return Button[response];
  }

  prompt(...args: unknown[]): FakePromptResponse {
    this.env.call('Ui', 'Ui.prompt');
    const {title, prompt, buttons} = this.dialogArgs(args);
    const {button, text} = this.log.nextPrompt(buttons);
    this.log.events.push({
      kind: 'prompt',
      title,
      prompt,
      buttons,
      response: button,
      text,
      atMs: this.env.clock.now(),
    });
    return new FakePromptResponse(button, text);
  }

  showSidebar(userInterface: Showable): void {
    this.env.call('Ui', 'Ui.showSidebar');
    const html = this.content(userInterface);
    this.log.events.push({
      kind: 'sidebar',
      title: userInterface.getTitle?.() ?? '',
      html,
      atMs: this.env.clock.now(),
    });
  }

  showModalDialog(userInterface: Showable, title: string): void {
    this.env.call('Ui', 'Ui.showModalDialog');
    this.dialog(userInterface, title, true);
  }

  showModelessDialog(userInterface: Showable, title: string): void {
    this.env.call('Ui', 'Ui.showModelessDialog');
    this.dialog(userInterface, title, false);
  }

  private dialog(userInterface: Showable, title: string, modal: boolean): void {
    const html = this.content(userInterface);
    this.log.events.push({
      kind: 'dialog',
      modal,
      title: String(title),
      html,
      width: userInterface.getWidth?.(),
      height: userInterface.getHeight?.(),
      atMs: this.env.clock.now(),
    });
  }

  private content(userInterface: Showable): string {
    if (!userInterface || typeof userInterface.getContent !== 'function') {
      this.env.fail('Invalid argument: userInterface');
    }
    return userInterface.getContent();
  }

  private dialogArgs(args: unknown[]) {
    const setOf = (v: unknown): ButtonSetName =>
      enumName(ButtonSet, v) ?? this.env.fail('Invalid argument: buttons');
    const [a, b, c] = args;
    if (args.length === 3)
      return {title: String(a), prompt: String(b), buttons: setOf(c)};
    if (args.length === 2)
      return {title: '', prompt: String(a), buttons: setOf(b)};
    if (args.length === 1)
      return {title: '', prompt: String(a), buttons: 'OK' as const};
    return this.env.fail(
      "The parameters don't match the method signature for Ui.alert.",
    );
  }
}
