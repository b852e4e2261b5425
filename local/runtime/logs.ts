import {format} from 'node:util';
import {VirtualClock} from './clock';

export type LogLevel = 'debug' | 'info' | 'log' | 'warn' | 'error';

export interface LogEntry {
  source: 'Logger' | 'console';
  level: LogLevel;
  message: string;
  /** Virtual time of the line. */
  atMs: number;
}

/** Everything the add-on logged, for tests to read (and optionally echoed to the real stderr). */
export class LogBook {
  readonly entries: LogEntry[] = [];

  constructor(
    private readonly clock: VirtualClock,
    private readonly echo: boolean,
  ) {}

  add(source: LogEntry['source'], level: LogLevel, message: string): void {
    this.entries.push({source, level, message, atMs: this.clock.now()});
    if (this.echo) process.stderr.write(`[${source}.${level}] ${message}\n`);
  }

  /** All messages as text, one a line (handy in assertions). */
  text(): string {
    return this.entries.map(e => e.message).join('\n');
  }

  clear(): void {
    this.entries.length = 0;
  }
}

/** The `console` global of the add-on's context (V8 in a vm prints nothing by itself). */
export function createConsole(
  book: LogBook,
): Record<LogLevel, (...args: unknown[]) => void> {
  const line =
    (level: LogLevel) =>
    (...args: unknown[]) =>
      book.add('console', level, format(...args));
  return {
    debug: line('debug'),
    info: line('info'),
    log: line('log'),
    warn: line('warn'),
    error: line('error'),
  };
}

/** The Logger service: `Logger.log(format, ...values)` with %s placeholders. */
export class FakeLogger {
  private readonly lines: string[] = [];

  constructor(private readonly book: LogBook) {}

  log(data: unknown, ...values: unknown[]): FakeLogger {
    const message =
      values.length > 0 && typeof data === 'string'
        ? format(data, ...values)
        : format(data);
    this.lines.push(message);
    this.book.add('Logger', 'info', message);
    return this;
  }

  getLog(): string {
    return this.lines.map(l => `${l}\n`).join('');
  }

  clear(): void {
    this.lines.length = 0;
  }
}
