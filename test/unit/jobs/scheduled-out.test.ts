/**
 * A scheduled change's request out with no answer recorded is an outbox entry (issue 32):
 * src/jobs/scheduled/due.ts reads it from there, never from the row's message; an earlier
 * release's marks, in the stored change's message, are read in once.
 */
import {StateBook} from '../../../src/state/book';
import {Outbox} from '../../../src/state/outbox';
import {dueItems, isOpen} from '../../../src/jobs/scheduled/due';
import {StoredChanges} from '../../../src/jobs/scheduled/stored';
import {SCHEDULED_MEMO} from '../../../src/state/scheduled-memo';
import {MemoryWorkbook} from '../../support/workbook';

const AT = 1_767_600_000;

/** A stored field of change c1 on Budgets 7, ERROR with `message`. */
function field(message: string, field = 'daily_cap [ALL]') {
  return {
    change_id: 'c1',
    account: '(main account)',
    sheet: 'Budgets',
    record: '7',
    field,
    before: '100',
    after: '150',
    status: 'ERROR',
    message,
    apply_at: AT,
    revert_at: AT + 3600,
  };
}

function opened(kept: unknown[]) {
  const book = StateBook.open(new MemoryWorkbook());
  book.setMemo(SCHEDULED_MEMO, kept);
  const outbox = Outbox.of(book);
  return {outbox, store: StoredChanges.open(book, outbox)};
}

describe('a scheduled request out', () => {
  it("an earlier release's mark in the message is read in once, as a write of the scheduled job", () => {
    const {outbox, store} = opened([
      field('Unknown outcome: the scheduled revert was sent at …'),
      field(
        'Unknown outcome: the scheduled revert was sent at …',
        'total_budget [ALL]',
      ),
    ]);
    expect(outbox.entries('write')).toEqual([
      {
        kind: 'write',
        job: 'scheduled revert',
        account: '',
        record: 'Budgets 7',
        change: 'c1',
        request: {sheet: 'Budgets', sent: []},
        time: '',
      },
    ]);
    const [item] = dueItems(store.entries, AT * 1000, outbox);
    expect(item).toMatchObject({phase: 'revert', unknown: true});
    expect(item.entries).toHaveLength(2);
  });

  it('the same words with no outbox entry (read in already, and settled) send nothing and stay closed', () => {
    const {outbox, store} = opened([
      field('Unknown outcome: the scheduled push was sent at …'),
    ]);
    outbox.settle({
      kind: 'write',
      account: '',
      record: 'Budgets 7',
      change: 'c1',
    });
    expect(dueItems(store.entries, (AT + 7200) * 1000, outbox)).toEqual([]);
    expect(isOpen(store.entries[0], outbox)).toBe(false);
  });
});
