/**
 * Every sheet schema of the add-on, in the order of DESIGN 4.3, which the user guide follows.
 * A new sheet's schema is added here; `npx tsx scripts/gen-docs.ts` then regenerates
 * docs/sheets.md (a unit test fails while it is stale).
 */
import type {SheetSchema} from '../schema';
import {ALERTS} from './alerts';
import {BUDGETS} from './budgets';
import {CAMPAIGNS} from './campaigns';
import {CREATIVE_ADS} from './creative-ads';
import {CREATIVE_SETS} from './creative-sets';
import {CREATIVES} from './creatives';
import {HISTORY} from './history';
import {NEW_OFFERS} from './new-offers';
import {OFFERS} from './offers';
import {SCHEDULED} from './scheduled';
import {SUB_ACCOUNTS} from './sub-accounts';

export const SCHEMAS = [
  CAMPAIGNS,
  OFFERS,
  BUDGETS,
  NEW_OFFERS,
  CREATIVE_SETS,
  CREATIVES,
  CREATIVE_ADS,
  SUB_ACCOUNTS,
  SCHEDULED,
  HISTORY,
  ALERTS,
] as ReadonlyArray<SheetSchema<never>>;
