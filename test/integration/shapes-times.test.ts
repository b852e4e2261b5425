/**
 * start_time and end_time in the offers list: 2.3 calls them timestamps (string or int) and
 * does not say in what unit; 4.2 takes Unix seconds. A server that lists them in milliseconds
 * (emulator option `listsTimesInMs`) is read as the seconds they mean: the Offers sheet shows
 * the very cells it shows for seconds, not a date some 55,000 years away.
 */
import type {EmulatorOptions} from '../../local/emulator';
import {offerDesk, recordsOf, valuesOf} from '../support/offer-desk';

function refreshed(options: EmulatorOptions) {
  const desk = offerDesk({offers: 7, ...options});
  desk.rt.call('refreshOffers');
  return desk;
}

describe('offer times listed in milliseconds', () => {
  it('show the cells seconds show, and a second refresh finds nothing changed', () => {
    const inMs = refreshed({listsTimesInMs: true});
    const inSeconds = refreshed({});

    expect(valuesOf(inMs.rt, 'Offers')).toEqual(
      valuesOf(inSeconds.rt, 'Offers'),
    );
    const [first] = [...inMs.emulator.account('demo_adv').offers.values()];
    expect(recordsOf(inMs.rt, 'Offers')[0].start_time).toEqual(
      new Date(first.start_time * 1000),
    );

    const summary = inMs.rt.call('refreshOffers') as {message: string};
    expect(summary.message).toBe('Refreshed 7 offers (main account).');
    expect(valuesOf(inMs.rt, 'Offers')).toEqual(
      valuesOf(inSeconds.rt, 'Offers'),
    );
  });
});
