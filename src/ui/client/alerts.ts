/** The count of Alerts rows not seen yet (seen not ticked), asked on opening and after jobs. */
import {counted} from '../../text/wording';
import {byId, say} from './dom';
import {server} from './server';

export class AlertsCount {
  private readonly text = byId('alerts-count');

  async load(): Promise<void> {
    try {
      const unseen = await server.countUnseenAlerts();
      if (unseen === 0) {
        say(
          this.text,
          'No alert waiting: refreshes of offers add them to the Alerts sheet.',
          'ok',
        );
      } else {
        say(
          this.text,
          `${counted(unseen, 'alert')} not seen yet: see the Alerts sheet, and tick seen once you have looked.`,
          'warn',
        );
      }
    } catch (e) {
      say(this.text, (e as Error).message, 'error');
    }
  }
}
