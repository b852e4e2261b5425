/** The OCPI optimisation fields of an offer creation (4.2: bid_goal and its targets). */
import {
  FieldErrors,
  isPlainObject,
  message,
  readArray,
  readDecimal,
  readString,
  type Params,
} from '../checks';
import {GEO_CODES, OCPI_BID_GOALS, TARGET_GOAL_WINDOWS} from '../enums';

const TARGET_GOAL_RULE = {
  'Target-ROAS': {min: 1, max: 1000, decimals: 2},
  'Target-CPE': {min: 0.1, max: 2000, decimals: 3},
} as const;
type OptimisedGoal = keyof typeof TARGET_GOAL_RULE;

export interface Optimisation {
  bid_goal: OptimisedGoal;
  target_agg_event: string[];
  target_original_event: string;
  target_goal_window: string;
  target_goal: number;
  target_goal_by_geo: {geo: string; target_goal: number}[];
}

/** OCPI's bid_goal (required) and the fields each goal requires. */
export function readOptimisation(
  errors: FieldErrors,
  params: Params,
  geos: string[] | undefined,
): Optimisation | undefined {
  const goal = readString(errors, 'bid_goal', params.bid_goal, {
    required: message.requiredIf('bid_goal', 'billing_type', 'OCPI'),
    oneOf: OCPI_BID_GOALS,
  }) as OptimisedGoal | undefined;
  if (!goal) return undefined;
  const required = (field: string) =>
    message.requiredIf(field, 'bid_goal', goal);
  const events = readStringArray(
    errors,
    'target_agg_event',
    params.target_agg_event,
    required('target_agg_event'),
  );
  const original =
    goal === 'Target-CPE'
      ? readString(
          errors,
          'target_original_event',
          params.target_original_event,
          {
            required: required('target_original_event'),
          },
        )
      : '';
  const window = readString(
    errors,
    'target_goal_window',
    params.target_goal_window,
    {required: required('target_goal_window'), oneOf: TARGET_GOAL_WINDOWS},
  );
  const target = readDecimal(errors, 'target_goal', params.target_goal, {
    required: required('target_goal'),
    ...TARGET_GOAL_RULE[goal],
  });
  const byGeo = readGoalByGeo(errors, params.target_goal_by_geo, goal, geos);
  // Callers throw on any error before using the result.
  if (!errors.empty) return undefined;
  return {
    bid_goal: goal,
    target_agg_event: events!,
    target_original_event: original!,
    target_goal_window: window!,
    target_goal: target!,
    target_goal_by_geo: byGeo!,
  };
}

function readStringArray(
  errors: FieldErrors,
  field: string,
  value: unknown,
  required: string,
): string[] | undefined {
  const items = readArray(errors, field, value, {required});
  if (!items) return undefined;
  const strings = items.map((item, i) =>
    readString(errors, `${field}.${i}`, item, {required: true}),
  );
  return strings.every(item => item !== undefined)
    ? (strings as string[])
    : undefined;
}

/** Optional per-geo goals: delivery geos, each once, with the offer-level goal's range. */
function readGoalByGeo(
  errors: FieldErrors,
  value: unknown,
  goal: OptimisedGoal,
  geos: string[] | undefined,
): {geo: string; target_goal: number}[] | undefined {
  const items = readArray(errors, 'target_goal_by_geo', value);
  if (!items) return errors.has('target_goal_by_geo') ? undefined : [];
  const seen = new Set<string>();
  const parsed = items.map((item, i) => {
    const path = `target_goal_by_geo.${i}`;
    if (!isPlainObject(item)) return errors.add(path, message.object(path));
    const geo = readString(errors, `${path}.geo`, item.geo, {required: true});
    const allowed =
      geo !== undefined &&
      !seen.has(geo) &&
      (geos && geos[0] !== 'ALL' ? geos.includes(geo) : GEO_CODES.has(geo));
    if (geo !== undefined && !allowed) {
      errors.add(`${path}.geo`, message.invalid(`${path}.geo`));
    }
    if (geo !== undefined) seen.add(geo);
    const target = readDecimal(
      errors,
      `${path}.target_goal`,
      item.target_goal,
      {
        required: true,
        ...TARGET_GOAL_RULE[goal],
      },
    );
    return allowed && target !== undefined
      ? {geo, target_goal: target}
      : undefined;
  });
  return parsed.every(item => item !== undefined)
    ? (parsed as {geo: string; target_goal: number}[])
    : undefined;
}
