/**
 * "Choose files…": opens the Google Picker dialog, where the picked Drive files become
 * Creatives rows. Offer Desk may read only the Drive files a user picked there (drive.file).
 */
import {byId, say} from './dom';
import {server} from './server';

export function wireFilePicker(): void {
  const message = byId('choose-files-message');
  byId('choose-files').addEventListener('click', () => {
    say(message, '');
    server
      .showFilePicker()
      .catch((e: Error) => say(message, e.message, 'error'));
  });
}
