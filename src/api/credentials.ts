import type {CredentialSource} from './client';
import type {Credentials} from './signing';
import {ConfigError} from './errors';

/** The main account's keys: nothing fresher exists when the API refuses them. */
export class MainAccountCredentials implements CredentialSource {
  constructor(private readonly keys: Credentials) {}
  current(): Credentials {
    return this.keys;
  }
  refresh(): boolean {
    return false;
  }
}

/** Where a sub-account's keys are kept between executions (the user's own properties). */
export interface SubAccountKeyStore {
  get(name: string): Credentials | undefined;
  put(name: string, keys: Credentials): void;
  drop(name: string): void;
}

/**
 * A sub-account's keys (API part 1, rule 3): kept keys first, else looked up with the main
 * account's keys and kept. When the API refuses kept keys they are dropped and looked up
 * once more; a second refusal stands.
 */
export class SubAccountCredentials implements CredentialSource {
  private keys: Credentials | undefined;
  private refreshed = false;

  constructor(
    private readonly name: string,
    private readonly store: SubAccountKeyStore,
    private readonly lookup: (name: string) => Credentials | undefined,
  ) {}

  current(): Credentials {
    this.keys ??= this.store.get(this.name) ?? this.lookUp();
    return this.keys;
  }

  refresh(): boolean {
    if (this.refreshed) return false;
    this.refreshed = true;
    this.store.drop(this.name);
    this.keys = undefined;
    return true;
  }

  private lookUp(): Credentials {
    const keys = this.lookup(this.name);
    if (!keys) {
      throw new ConfigError(
        `The main account has no sub-account named "${this.name}": choose another account in the sidebar.`,
      );
    }
    this.store.put(this.name, keys);
    return keys;
  }
}
