/**
 * The seeded accounts and their made-up credentials. These are documented demo values for a
 * local stand-in, never real keys.
 */
import {BILLING_TYPES, type BillingType, type Currency} from './enums';
import type {AccountKind} from './model';

export interface DemoAccount {
  name: string;
  kind: AccountKind;
  /** Name of the owning adv_user, for a sub-account. */
  parent?: string;
  accessKey: string;
  apiKey: string;
  password: string;
  permissions: readonly BillingType[];
  currency: Currency;
  /** The main account gets the configured record counts; the others a tenth of them. */
  main: boolean;
}

const ALL_BILLING: readonly BillingType[] = BILLING_TYPES;

export const DEMO_ACCOUNTS = {
  main: {
    name: 'demo_adv',
    kind: 'adv_user',
    accessKey: 'demo-access-key',
    apiKey: 'demo-api-key-0000000000000000000',
    password: 'demo-password',
    permissions: ALL_BILLING,
    currency: 'USD',
    main: true,
  },
  /** A sub-account of demo_adv without OCPI permission. */
  subA: {
    name: 'demo_sub_a',
    kind: 'sub_adv_account',
    parent: 'demo_adv',
    accessKey: 'demo-sub-a-access-key',
    apiKey: 'demo-sub-a-api-key-0000000000000',
    password: 'demo-password',
    permissions: ['CPI', 'CPE', 'CPM', 'CPC'],
    currency: 'USD',
    main: false,
  },
  /** A sub-account of demo_adv billed in CNY. */
  subB: {
    name: 'demo_sub_b',
    kind: 'sub_adv_account',
    parent: 'demo_adv',
    accessKey: 'demo-sub-b-access-key',
    apiKey: 'demo-sub-b-api-key-0000000000000',
    password: 'demo-password',
    permissions: ALL_BILLING,
    currency: 'CNY',
    main: false,
  },
  /** An unrelated adv_user: none of demo_adv's records or sub-accounts are visible to it. */
  other: {
    name: 'other_adv',
    kind: 'adv_user',
    accessKey: 'other-access-key',
    apiKey: 'other-api-key-000000000000000000',
    password: 'demo-password',
    permissions: ALL_BILLING,
    currency: 'USD',
    main: false,
  },
} as const satisfies Record<string, DemoAccount>;

/** The most agency sub-accounts a world may seed (EmulatorOptions.subAccounts). */
export const MAX_AGENCY_SUB_ACCOUNTS = 99;

/**
 * The `number`th (1-based) of the agency's sub-accounts of demo_adv that `subAccounts` seeds:
 * `agency_sub_07`, its own made-up keys, every billing type, every third one billed in CNY (so
 * an agency's accounts bill in two currencies).
 */
export function agencySubAccount(number: number): DemoAccount {
  const nn = String(number).padStart(2, '0');
  return {
    name: `agency_sub_${nn}`,
    kind: 'sub_adv_account',
    parent: DEMO_ACCOUNTS.main.name,
    accessKey: `agency-sub-${nn}-access-key`,
    apiKey: `agency-sub-${nn}-api-key-`.padEnd(32, '0'),
    password: 'demo-password',
    permissions: ALL_BILLING,
    currency: number % 3 === 0 ? 'CNY' : 'USD',
    main: false,
  };
}
