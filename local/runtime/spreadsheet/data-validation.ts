import {makeEnum} from '../enums';
import {Env} from '../env';
import {Content} from './cell';
import {displayValue} from './display';

export const DataValidationCriteria = makeEnum([
  'DATE_AFTER',
  'DATE_BEFORE',
  'DATE_BETWEEN',
  'DATE_EQUAL_TO',
  'DATE_IS_VALID_DATE',
  'DATE_NOT_BETWEEN',
  'DATE_ON_OR_AFTER',
  'DATE_ON_OR_BEFORE',
  'NUMBER_BETWEEN',
  'NUMBER_EQUAL_TO',
  'NUMBER_GREATER_THAN',
  'NUMBER_GREATER_THAN_OR_EQUAL_TO',
  'NUMBER_LESS_THAN',
  'NUMBER_LESS_THAN_OR_EQUAL_TO',
  'NUMBER_NOT_BETWEEN',
  'NUMBER_NOT_EQUAL_TO',
  'TEXT_CONTAINS',
  'TEXT_DOES_NOT_CONTAIN',
  'TEXT_EQUAL_TO',
  'TEXT_IS_VALID_EMAIL',
  'TEXT_IS_VALID_URL',
  'VALUE_IN_LIST',
  'VALUE_IN_RANGE',
  'CUSTOM_FORMULA',
  'CHECKBOX',
] as const);

type CriteriaName = keyof typeof DataValidationCriteria;

/** The cells of a VALUE_IN_RANGE rule, read when a value is checked against it. */
export interface ValueSource {
  getDisplayValues(): string[][];
}

interface Rule {
  criteria: CriteriaName;
  args: unknown[];
  allowInvalid: boolean;
  helpText: string;
}

/** A built rule, as Range.getDataValidation returns it. */
export class FakeDataValidation {
  constructor(
    private readonly env: Env,
    readonly rule: Readonly<Rule>,
  ) {}

  getCriteriaType() {
    return DataValidationCriteria[this.rule.criteria];
  }

  getCriteriaValues(): unknown[] {
    return this.env.realm.array(this.rule.args);
  }

  getAllowInvalid(): boolean {
    return this.rule.allowInvalid;
  }

  getHelpText(): string {
    return this.rule.helpText;
  }

  copy(): FakeDataValidationBuilder {
    return new FakeDataValidationBuilder(this.env, {
      ...this.rule,
      args: [...this.rule.args],
    });
  }

  /** Whether typing `content` is allowed: it holds to the rule, or the rule allows invalid data. */
  accepts(content: Content | undefined, format: string | undefined): boolean {
    return this.rule.allowInvalid || this.holds(content, format);
  }

  /**
   * Why a cell holding `content` breaks the rule, as Sheets' red mark says it (the rule's help
   * text, else Sheets' own wording); undefined when it holds.
   */
  broken(
    content: Content | undefined,
    format: string | undefined,
  ): string | undefined {
    if (this.holds(content, format)) return undefined;
    if (this.rule.helpText) return this.rule.helpText;
    return this.rule.criteria === 'VALUE_IN_LIST' ||
      this.rule.criteria === 'VALUE_IN_RANGE'
      ? 'Invalid: Input must be an item on the specified list.'
      : 'Invalid: Input violates the data validation rule of this cell.';
  }

  /** Whether `content` passes the rule; only the rules an add-on is likely to set are checked. */
  private holds(
    content: Content | undefined,
    format: string | undefined,
  ): boolean {
    if (!content) return true;
    const [first, second] = this.rule.args;
    const shown = displayValue(content, format);
    switch (this.rule.criteria) {
      case 'VALUE_IN_LIST':
        return (first as string[]).includes(shown);
      case 'VALUE_IN_RANGE':
        return (first as ValueSource)
          .getDisplayValues()
          .some(row => row.includes(shown));
      case 'CHECKBOX':
        return content.kind === 'boolean';
      case 'NUMBER_BETWEEN':
        return (
          content.kind === 'number' &&
          content.value >= Number(first) &&
          content.value <= Number(second)
        );
      case 'TEXT_IS_VALID_EMAIL':
        return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(shown);
      case 'TEXT_IS_VALID_URL':
        return /^https?:\/\/\S+$/.test(shown);
      default:
        return true;
    }
  }
}

/** SpreadsheetApp.newDataValidation(): the subset of criteria an add-on needs, plus withCriteria. */
export class FakeDataValidationBuilder {
  private hasCriteria: boolean;
  private readonly rule: Rule;

  /** Starts empty (allowing invalid data, as Sheets does), or from a copied rule. */
  constructor(
    private readonly env: Env,
    rule?: Rule,
  ) {
    this.hasCriteria = rule !== undefined;
    this.rule = rule ?? {
      criteria: 'CUSTOM_FORMULA',
      args: [],
      allowInvalid: true,
      helpText: '',
    };
  }

  requireValueInList(
    values: unknown,
    showDropdown = true,
  ): FakeDataValidationBuilder {
    if (!Array.isArray(values) || values.length === 0) {
      this.env.fail('Invalid argument: values');
    }
    return this.set('VALUE_IN_LIST', [
      this.env.realm.array(values.map(String)),
      showDropdown,
    ]);
  }

  requireValueInRange(
    range: ValueSource,
    showDropdown = true,
  ): FakeDataValidationBuilder {
    if (!range || typeof range.getDisplayValues !== 'function') {
      this.env.fail('Invalid argument: range');
    }
    return this.set('VALUE_IN_RANGE', [range, showDropdown]);
  }

  requireCheckbox(): FakeDataValidationBuilder {
    return this.set('CHECKBOX', []);
  }

  requireNumberBetween(start: number, end: number): FakeDataValidationBuilder {
    return this.set('NUMBER_BETWEEN', [start, end]);
  }

  requireTextIsEmail(): FakeDataValidationBuilder {
    return this.set('TEXT_IS_VALID_EMAIL', []);
  }

  requireTextIsUrl(): FakeDataValidationBuilder {
    return this.set('TEXT_IS_VALID_URL', []);
  }

  withCriteria(criteria: unknown, args: unknown[]): FakeDataValidationBuilder {
    const name = (Object.keys(DataValidationCriteria) as CriteriaName[]).find(
      k => DataValidationCriteria[k] === criteria,
    );
    if (!name) this.env.fail('Invalid argument: criteria');
    return this.set(name, Array.isArray(args) ? [...args] : []);
  }

  setAllowInvalid(allowInvalidData: boolean): FakeDataValidationBuilder {
    this.rule.allowInvalid = Boolean(allowInvalidData);
    return this;
  }

  setHelpText(helpText: string): FakeDataValidationBuilder {
    this.rule.helpText = String(helpText);
    return this;
  }

  getCriteriaType() {
    return DataValidationCriteria[this.rule.criteria];
  }

  getCriteriaValues(): unknown[] {
    return this.env.realm.array(this.rule.args);
  }

  build(): FakeDataValidation {
    if (!this.hasCriteria)
      this.env.fail(
        'You must specify a criteria for the data validation rule.',
      );
    return new FakeDataValidation(this.env, {
      ...this.rule,
      args: [...this.rule.args],
    });
  }

  private set(
    criteria: CriteriaName,
    args: unknown[],
  ): FakeDataValidationBuilder {
    this.rule.criteria = criteria;
    this.rule.args = args;
    this.hasCriteria = true;
    return this;
  }
}
