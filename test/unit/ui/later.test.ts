/**
 * Push later's times: a wall time typed in the sidebar is read in the spreadsheet's time zone,
 * whatever the browser's, across a change of the zone's offset.
 */
import {unixSeconds} from '../../../src/ui/client/later';

const utc = (text: string) => Date.parse(`${text}Z`) / 1000;

describe('unixSeconds', () => {
  it.each([
    ['2026-01-05T10:00', 'Etc/UTC', '2026-01-05T10:00:00'],
    ['2026-01-05T10:00', 'Europe/Paris', '2026-01-05T09:00:00'],
    ['2026-07-05T10:00', 'Europe/Paris', '2026-07-05T08:00:00'],
    ['2026-03-29T04:00', 'Europe/Paris', '2026-03-29T02:00:00'],
    ['2026-01-05T10:00', 'Asia/Kolkata', '2026-01-05T04:30:00'],
    ['2026-01-05T10:00', 'America/Los_Angeles', '2026-01-05T18:00:00'],
  ])('%s in %s is %s UTC', (typed, zone, at) => {
    expect(unixSeconds(typed, zone)).toBe(utc(at));
  });

  it('is NaN for a text that is no time', () => {
    expect(unixSeconds('', 'Etc/UTC')).toBeNaN();
    expect(unixSeconds('tomorrow', 'Etc/UTC')).toBeNaN();
    // The browser's own order is not read (issue 36): the sheets write ISO dates.
    expect(unixSeconds('01/05/2026 10:00', 'Etc/UTC')).toBeNaN();
    expect(unixSeconds('2026-02-30 10:00', 'Etc/UTC')).toBeNaN();
  });

  it('reads the ISO date the sheets write, with a space as with a T', () => {
    expect(unixSeconds(' 2026-01-05 10:00 ', 'Etc/UTC')).toBe(
      utc('2026-01-05T10:00:00'),
    );
    expect(unixSeconds('2026-01-05 9:30', 'Europe/Paris')).toBe(
      utc('2026-01-05T08:30:00'),
    );
  });
});
