/**
 * "Choose files…": opens the Google Picker dialog, where the picked Drive files become
 * Creatives rows. Offer Desk may read only the Drive files a user picked there (drive.file).
 */
import {byId, say} from './dom';
import {server} from './server';

/** A button that opens a dialog of the server's; its failure said under it. */
function wireDialogButton(id: string, open: () => Promise<void>): void {
  const message = byId(`${id}-message`);
  byId(id).addEventListener('click', () => {
    say(message, '');
    open().catch((e: Error) => say(message, e.message, 'error'));
  });
}

export function wireFilePicker(): void {
  wireDialogButton('choose-files', () => server.showFilePicker());
}

/** Clone selected offers…: the same dialog as the menu's (Create). */
export function wireCloneDialog(): void {
  wireDialogButton('clone-offers', () => server.showCloneDialog());
}
