/** The runtime's MailApp: a daily quota per user, Google's refusals, full authorization only. */
import {createRuntime} from '../../local/runtime';

const DAY_MS = 24 * 3600 * 1000;

const SCRIPT = `
function quota() { return MailApp.getRemainingDailyQuota(); }
function mail(to) { MailApp.sendEmail(to, 'Subject', 'Body'); }
`;

function setup(mailDailyQuota?: number) {
  const rt = createRuntime({
    distDir: null,
    users: ['ann@example.com', 'bob@example.com'],
    mailDailyQuota,
  });
  rt.load(SCRIPT, 'Code.js');
  return rt;
}

describe('MailApp', () => {
  it('sends as the active user and counts each user’s emails against the day’s quota', () => {
    const rt = setup(2);
    expect(rt.run('quota')).toBe(2);
    rt.run('mail', {args: ['x@example.com']});
    expect(rt.run('quota')).toBe(1);
    rt.run('mail', {args: ['y@example.com']});
    expect(rt.run('quota')).toBe(0);
    expect(() => rt.run('mail', {args: ['z@example.com']})).toThrow(
      'Service invoked too many times for one day: email.',
    );
    expect(rt.outbox.sent.map(m => [m.from, m.to, m.subject, m.body])).toEqual([
      ['ann@example.com', 'x@example.com', 'Subject', 'Body'],
      ['ann@example.com', 'y@example.com', 'Subject', 'Body'],
    ]);
    // Another user has a quota of their own; the next day, so has ann again.
    rt.setUser('bob@example.com');
    expect(rt.run('quota')).toBe(2);
    rt.setUser('ann@example.com');
    rt.clock.advance(DAY_MS);
    expect(rt.run('quota')).toBe(2);
  });

  it('allows 100 a day by default, a consumer account’s quota', () => {
    expect(setup().run('quota')).toBe(100);
  });

  it('refuses an address that is none, sending nothing', () => {
    const rt = setup();
    for (const to of ['', 'not-an-address', 'a b@example.com']) {
      expect(() => rt.run('mail', {args: [to]})).toThrow(
        `Invalid email: ${to}`,
      );
    }
    expect(rt.outbox.sent).toEqual([]);
  });

  it('needs full authorization', () => {
    const rt = setup();
    expect(() => rt.run('quota', {authMode: 'LIMITED'})).toThrow(
      'You do not have permission to call MailApp.getRemainingDailyQuota in AuthMode.LIMITED. Required permissions: full authorization',
    );
    expect(() =>
      rt.run('mail', {args: ['x@example.com'], authMode: 'LIMITED'}),
    ).toThrow(
      'You do not have permission to call MailApp.sendEmail in AuthMode.LIMITED.',
    );
    expect(rt.outbox.sent).toEqual([]);
  });
});
