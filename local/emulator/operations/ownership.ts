/** Lookups every write shares: a record of the acting account that the caller may edit. */
import {FieldErrors, message, readInteger} from '../checks';
import {ApiError, CODE} from '../envelope';
import type {Account, Campaign, Offer} from '../model';

/** The caller's own offer named by offer_id; another account's offer is simply unknown. */
export function readOwnOffer(
  errors: FieldErrors,
  account: Account,
  value: unknown,
): Offer | undefined {
  const offerId = readInteger(errors, 'offer_id', value, {required: true});
  if (offerId === undefined) return undefined;
  return (
    account.offers.get(offerId) ??
    errors.add('offer_id', message.invalid('offer_id'))
  );
}

/** The caller's own campaign named by campaign_id. */
export function readOwnCampaign(
  errors: FieldErrors,
  account: Account,
  value: unknown,
): Campaign | undefined {
  const campaignId = readInteger(errors, 'campaign_id', value, {
    required: true,
  });
  if (campaignId === undefined) return undefined;
  return (
    account.campaigns.get(campaignId) ??
    errors.add('campaign_id', message.invalid('campaign_id'))
  );
}

/** Records maintained by the account manager (maintain_by AM) are view-only to the caller. */
export function assertEditable(record: Campaign | Offer): void {
  if (record.maintain_by !== 'AM') return;
  const [kind, field, id] =
    'offer_id' in record
      ? ['offer', 'offer_id', record.offer_id]
      : ['campaign', 'campaign_id', record.campaign_id];
  throw new ApiError(
    CODE.MAINTAINED_BY_AM,
    `${kind} is maintained by AM and cannot be edited`,
    {[field]: `The ${kind} ${id} is maintained by AM: view only.`},
  );
}
