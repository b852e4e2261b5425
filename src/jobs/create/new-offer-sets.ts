/**
 * The Creative Sets rows of createOffers, each checked and planned under the New Offers row it
 * names, as that row's account, its creatives resolved to the Creatives rows of that account.
 */
import type {Material} from '../../api/types';
import {
  MaterialRow,
  Resolution,
  checkCreativeSet,
  resolveCreative,
} from '../../rules/creative-set';
import {excerpt} from '../../rules/values';
import {ACCOUNT, accountCell, accountOfCell} from '../../sheets/accounts';
import type {CodecContext} from '../../sheets/codec';
import {formulaErrors, withFormulaErrors} from '../../sheets/rows';
import {FIRST_ROW, Table, cellOf, sheetRow} from '../../sheets/table';
import {typedAccount} from './row-account';
import {dataRows, readRow, textCell} from './new-offer-cells';
import type {Plan, SetPlan} from './new-offer-plan';

/**
 * A Creatives row and the account its `account` cell names: undefined for an empty cell (the
 * material is then the account's of the offer that uses it, and uploaded to that account),
 * null for a cell that names no account (no offer's).
 */
type AccountMaterial = MaterialRow & {account: string | null | undefined};

export function materialRows(creatives: Table<Material>): AccountMaterial[] {
  return dataRows(creatives).map(index => {
    const cell = cellOf(creatives, index, ACCOUNT);
    const owner = typedAccount(cell, undefined, 'uploads the material');
    return {
      row: sheetRow(index),
      file: textCell(creatives, index, 'file'),
      creative_md5: textCell(creatives, index, 'creative_md5'),
      creative_name: textCell(creatives, index, 'creative_name'),
      account:
        'account' in owner
          ? owner.account
          : accountOfCell(cell) === undefined
            ? undefined
            : null,
    };
  });
}

/**
 * The material an item of a creative set names among its account's Creatives rows (and those
 * of no account yet; all rows while the set's account is unknown); one of another account's
 * is named as such.
 */
function resolveOwn(
  item: string,
  materials: readonly AccountMaterial[],
  account: string | undefined,
): Resolution {
  if (account === undefined) return resolveCreative(item, materials);
  const found = resolveCreative(
    item,
    materials.filter(m => m.account === undefined || m.account === account),
  );
  const elsewhere = found.ok ? found : resolveCreative(item, materials);
  if (found.ok || !elsewhere.ok) return found;
  return {
    ok: false,
    problem: `creatives names ${excerpt(item)}, the material of Creatives row ${elsewhere.material.row}, which is not account ${accountCell(account)}'s: a creative set uses its own account's materials (add a row of that account for it)`,
  };
}

/** The data row of a Creatives sheet row. */
export function materialIndex(material: MaterialRow): number {
  return material.row - FIRST_ROW;
}

function planSet(
  sets: Table<never>,
  index: number,
  owner: {account?: string; problem?: string},
  materials: readonly AccountMaterial[],
  context: CodecContext,
): SetPlan {
  const {problems, draft} = checkCreativeSet(
    readRow(sets, index, context).values,
  );
  const plan: SetPlan = {
    index,
    ...(owner.account === undefined ? {} : {account: owner.account}),
    problems: withFormulaErrors(formulaErrors(sets, index), {
      ...(owner.problem === undefined ? {} : {[ACCOUNT]: owner.problem}),
      ...problems,
    }),
    materials: [],
  };
  if (!draft) return plan;
  for (const item of draft.creatives) {
    const found = resolveOwn(item, materials, owner.account);
    if (!found.ok) {
      plan.problems.push(found.problem);
    } else if (found.material.creative_md5 && !found.material.creative_name) {
      plan.problems.push(
        `creatives names ${excerpt(item)}: Creatives row ${found.material.row} has no creative_name; refresh the creative materials to fill it`,
      );
    } else {
      plan.materials.push({item, material: found.material});
    }
  }
  if (plan.problems.length === 0) plan.draft = draft;
  return plan;
}

/**
 * The Creative Sets rows, each planned under the offer_name it names, as the account of that
 * New Offers row (`accounts`: offer_name -> its account, undefined where it names none). A row
 * that names no New Offers row, or one of another account, is refused; its empty `account`
 * cell is its offer's.
 */
export function planSets(
  plan: Plan,
  sets: Table<never>,
  accounts: ReadonlyMap<string, string | undefined>,
  materials: readonly AccountMaterial[],
  context: CodecContext,
): Map<string, SetPlan[]> {
  const setsByOffer = new Map<string, SetPlan[]>();
  for (const index of dataRows(sets)) {
    const name = textCell(sets, index, 'offer_name');
    const cell = cellOf(sets, index, ACCOUNT);
    const offer = accounts.get(name);
    const typed =
      accountOfCell(cell) === undefined
        ? {account: offer}
        : typedAccount(cell, offer, 'creates the creative set');
    if (
      'account' in typed &&
      typed.account !== undefined &&
      offer !== undefined &&
      typed.account !== offer
    ) {
      plan.refused.push({
        table: 'sets',
        index,
        message: `offer_name ${excerpt(name, false)} matches no New Offers row of account ${accountCell(typed.account)} (its row is account ${accountCell(offer)}'s): check the name and the account, or delete the row.`,
      });
      continue;
    }
    if (!accounts.has(name) || name === '') {
      plan.refused.push({
        table: 'sets',
        index,
        message: name
          ? `offer_name ${excerpt(name, false)} matches no New Offers row: check the name, or delete the row.`
          : 'offer_name is empty: write the offer_name of the New Offers row this creative set belongs to.',
      });
      continue;
    }
    setsByOffer.set(name, [
      ...(setsByOffer.get(name) ?? []),
      planSet(sets, index, typed, materials, context),
    ]);
  }
  return setsByOffer;
}
