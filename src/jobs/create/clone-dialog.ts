/**
 * Create > Clone selected offers…: the dialog (dist/Clone.html, built from src/ui/clone.html)
 * and what it asks the server before it calls cloneOffers: the offers selected in Offers, where
 * each one's creative sets would come from, and the accounts a clone may go to.
 */
import type {Platform} from '../../platform/ports';
import {DEFAULT_CLONE_NAME} from '../../rules/clone';
import {OFFERS} from '../../sheets/schemas/offers';
import {subAccountNamesInSheet} from '../../sheets/sub-account-names';
import {StateBook} from '../../state/book';
import {readSourceSheets, sourceOffer} from './clone-sources';
import {createdOffers} from '../../state/created-offers';

/** The dialog's HTML file in dist/. */
export const CLONE_FILE = 'Clone';
const DIALOG = {title: 'Clone selected offers', width: 560, height: 600};

export function showCloneDialog(platform: Platform): void {
  platform.ui.showDialog(CLONE_FILE, DIALOG.title, DIALOG.width, DIALOG.height);
}

/** A selected offer, as the dialog lists it. */
export interface CloneChoice {
  account: string;
  offer_id: number;
  offer_name: string;
  /** Where its creative sets come from; '' when neither its Creative Ads nor Offer Desk's creates know them. */
  setsFrom: string;
}

export interface CloneChoices {
  offers: CloneChoice[];
  /** '' (the main account) first, then the sub-accounts the spreadsheet knows. */
  accounts: string[];
  name: string;
  /** Why nothing can be cloned yet, or ''. */
  message: string;
}

/** The offers of the rows selected in Offers (any account), and the accounts to clone into. */
export function cloneChoices(platform: Platform): CloneChoices {
  const workbook = platform.workbook();
  const sheets = readSourceSheets(workbook);
  const created = createdOffers(StateBook.open(workbook), workbook);
  const offers = platform.ui.selectedRows(OFFERS.name).flatMap(row => {
    const found = sheets.offers[row - 2];
    const id = Number(found?.values.offer_id);
    if (!found || !Number.isInteger(id)) return [];
    const source = sourceOffer(sheets, created, found.account ?? '', id);
    return source
      ? [
          {
            account: source.account,
            offer_id: id,
            offer_name: String(source.fields.offer_name ?? ''),
            setsFrom: source.setsFrom ?? '',
          },
        ]
      : [];
  });
  const accounts = [
    '',
    ...new Set([
      ...subAccountNamesInSheet(workbook),
      ...sheets.offers.flatMap(r => (r.account ? [r.account] : [])),
    ]),
  ];
  return {
    offers,
    accounts,
    name: DEFAULT_CLONE_NAME,
    message:
      offers.length === 0
        ? `Select the rows of the offers to clone in the ${OFFERS.name} sheet (any account), then open this dialog again.`
        : '',
  };
}
