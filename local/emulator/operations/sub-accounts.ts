/**
 * POST and GET /api/open/v3/sub_adv_account (4.10, 4.11). Only an adv_user may call them; it
 * sees only the sub-accounts it created.
 */
import {FieldErrors, message, readString} from '../checks';
import {permissionDenied} from '../envelope';
import {pageOf, readPaging} from '../listing';
import type {Account} from '../model';
import {subAccountKeys} from '../records';
import type {OperationContext} from './context';

/** User names (ASSUMED rule): 3-64 letters, digits and _ . @ -, unique service-wide. */
const USER_NAME = /^[A-Za-z0-9_.@-]+$/;

export function createSubAccount({store, account, params}: OperationContext) {
  requireAdvUser(account);
  const errors = new FieldErrors();
  const name = readString(
    errors,
    'sub_adv_user_name',
    params.sub_adv_user_name,
    {
      required: true,
      length: [3, 64],
      pattern: USER_NAME,
    },
  );
  if (name !== undefined && store.accountByName(name)) {
    errors.add('sub_adv_user_name', message.unique('sub_adv_user_name'));
  }
  const password = readString(errors, 'password', params.password, {
    required: true,
    length: [6, 64],
  });
  errors.throwIfAny();
  const sub = store.addAccount({
    name: name!,
    kind: 'sub_adv_account',
    parentId: account.accountId,
    ...subAccountKeys(store, name!),
    password: password!,
    permissions: [...account.permissions],
    currency: account.currency,
  });
  return {
    sub_adv_user_name: sub.name,
    access_key: sub.access_key,
    api_key: sub.api_key,
    is_unlimited_credit: sub.is_unlimited_credit,
    credit: sub.credit,
  };
}

/**
 * An unknown name, or one of another adv_user, gives an empty list. Without a name: refused
 * (the name is required), or, with `listsSubAccounts`, every sub-account of the caller, paged.
 */
export function findSubAccount({
  store,
  account,
  params,
  settings,
}: OperationContext) {
  requireAdvUser(account);
  const errors = new FieldErrors();
  if (settings.listsSubAccounts && isAbsent(params.sub_adv_user_name)) {
    const paging = readPaging(errors, params, SUB_ACCOUNT_PAGING);
    errors.throwIfAny();
    const subs = store
      .accounts()
      .filter(sub => sub.parentId === account.accountId);
    return pageOf(subs, paging, sub =>
      settings.listsSubAccounts === 'names'
        ? {sub_adv_user_name: sub.name}
        : listed(sub),
    );
  }
  const name = readString(
    errors,
    'sub_adv_user_name',
    params.sub_adv_user_name,
    {
      required: true,
    },
  );
  errors.throwIfAny();
  const sub = store.accountByName(name!);
  const list = sub && sub.parentId === account.accountId ? [listed(sub)] : [];
  return {page: 1, limit: 10, total: list.length, list};
}

/** The listing's pages (assumption 15a): 10 by default, like the lookup, at most 50. */
const SUB_ACCOUNT_PAGING = {defaultLimit: 10, maxLimit: 50, clamp: true};

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function listed(sub: Account) {
  return {
    sub_adv_user_name: sub.name,
    access_key: sub.access_key,
    api_key: sub.api_key,
  };
}

function requireAdvUser(account: Account): void {
  if (account.kind !== 'adv_user') {
    throw permissionDenied(
      'access-key',
      'Only an adv_user may create or query sub_adv_account.',
    );
  }
}
