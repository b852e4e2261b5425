/**
 * State transitions the document leaves open (part 3), chosen here:
 * - setting a non-empty click URL starts a test: click_url_status is PENDDING until
 *   `delaySeconds` of emulator clock have passed, then PASS;
 * - an empty click URL makes it NOT_EXIST and cancels a running test;
 * - a PENDING offer becomes RUNNING once its click URL test has passed and its start time has
 *   come (the vendor: an offer stays PENDING while its start time is in the future).
 * Transitions are applied lazily, before each request is handled.
 */
import type {Offer} from './model';
import type {Store} from './store';

export function setClickUrl(
  store: Store,
  offer: Offer,
  clickUrl: string,
  nowSeconds: number,
  delaySeconds: number,
): void {
  offer.click_url = clickUrl;
  if (clickUrl === '') {
    offer.click_url_status = 'NOT_EXIST';
    offer.clickTestPassAt = null;
    store.pendingClickTests.delete(offer);
    return;
  }
  offer.click_url_status = 'PENDDING';
  offer.clickTestPassAt = nowSeconds + delaySeconds;
  store.pendingClickTests.add(offer);
}

export function settleClickTests(store: Store, nowSeconds: number): void {
  for (const offer of store.pendingClickTests) {
    // A test helper may have set the status directly: that ends the test.
    if (
      offer.click_url_status !== 'PENDDING' ||
      offer.clickTestPassAt === null
    ) {
      store.pendingClickTests.delete(offer);
    } else if (offer.clickTestPassAt <= nowSeconds) {
      offer.click_url_status = 'PASS';
      offer.clickTestPassAt = null;
      if (offer.status === 'PENDING') store.awaitingStart.add(offer);
      store.pendingClickTests.delete(offer);
    }
  }
  for (const offer of store.awaitingStart) {
    if (offer.status !== 'PENDING' || offer.click_url_status !== 'PASS') {
      store.awaitingStart.delete(offer);
    } else if (offer.start_time <= nowSeconds) {
      offer.status = 'RUNNING';
      store.awaitingStart.delete(offer);
    }
  }
}
