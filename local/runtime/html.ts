import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {FakeBlob} from './blob';
import {encodeText} from './bytes';
import {makeEnum} from './enums';
import {Env} from './env';

export const SandboxMode = makeEnum(['EMULATED', 'IFRAME', 'NATIVE'] as const);
export const XFrameOptionsMode = makeEnum(['ALLOWALL', 'DEFAULT'] as const);

/** An HtmlOutput: content plus the settings a dialog or sidebar reads. */
export class FakeHtmlOutput {
  private title = '';
  private width: number | undefined;
  private height: number | undefined;
  private sandboxMode: unknown = SandboxMode.IFRAME;
  private readonly metaTags: {name: string; content: string}[] = [];

  constructor(
    private readonly env: Env,
    private content: string,
  ) {}

  getContent(): string {
    return this.content;
  }

  setContent(content: string): FakeHtmlOutput {
    this.content = String(content);
    return this;
  }

  append(addedContent: string): FakeHtmlOutput {
    this.content += String(addedContent);
    return this;
  }

  setTitle(title: string): FakeHtmlOutput {
    this.title = String(title);
    return this;
  }

  getTitle(): string {
    return this.title;
  }

  setWidth(width: number): FakeHtmlOutput {
    this.width = Number(width);
    return this;
  }

  getWidth(): number | undefined {
    return this.width;
  }

  setHeight(height: number): FakeHtmlOutput {
    this.height = Number(height);
    return this;
  }

  getHeight(): number | undefined {
    return this.height;
  }

  setSandboxMode(mode: unknown): FakeHtmlOutput {
    if (
      !Object.values(SandboxMode).includes(
        mode as (typeof SandboxMode)['IFRAME'],
      )
    ) {
      this.env.fail('Invalid argument: mode');
    }
    this.sandboxMode = mode;
    return this;
  }

  getSandboxMode(): unknown {
    return this.sandboxMode;
  }

  addMetaTag(name: string, content: string): FakeHtmlOutput {
    this.metaTags.push({name: String(name), content: String(content)});
    return this;
  }

  getMetaTags(): {name: string; content: string}[] {
    return this.env.realm.array(
      this.metaTags.map(t => this.env.realm.object({...t})),
    );
  }

  setXFrameOptionsMode(): FakeHtmlOutput {
    return this;
  }

  setFaviconUrl(): FakeHtmlOutput {
    return this;
  }

  getBlob(): FakeBlob {
    return new FakeBlob(
      this.env,
      encodeText(this.content, 'utf8'),
      'text/html',
      null,
    );
  }

  toString(): string {
    return 'HtmlOutput';
  }
}

const escapeHtml = (value: unknown) =>
  String(value).replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);

/** Turns scriptlets (<? ?>, <?= ?>, <?!= ?>) into the body of a function run in the context. */
function compile(source: string): string {
  const parts: string[] = ['var __out = [];'];
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    parts.push(`__out.push(${JSON.stringify(source.slice(last, m.index))});`);
    if (m[1] === '=') parts.push(`__out.push(__escape(${m[2]}));`);
    else if (m[1] === '!=') parts.push(`__out.push(String(${m[2]}));`);
    else parts.push(m[2]);
    last = re.lastIndex;
  }
  parts.push(
    `__out.push(${JSON.stringify(source.slice(last))});`,
    "return __out.join('');",
  );
  return parts.join('\n');
}

/**
 * An HtmlTemplate: properties set on it are variables of its scriptlets, and the scriptlets see
 * the add-on's globals (they run in its context).
 */
export class FakeHtmlTemplate {
  [variable: string]: unknown;

  constructor(
    private readonly env: Env,
    private readonly source: string,
  ) {}

  getRawContent(): string {
    return this.source;
  }

  getCode(): string {
    return compile(this.source);
  }

  evaluate(): FakeHtmlOutput {
    // Sloppy-mode `with` gives scriptlets the template's variables, as Apps Script does.
    const run = this.env.realm.run(
      `(function (__vars, __escape) { with (__vars) { return (function () {\n${compile(this.source)}\n})(); } })`,
      'HtmlTemplate',
    ) as (vars: object, escape: (v: unknown) => string) => string;
    const vars = Object.fromEntries(
      Object.entries(this).filter(([k]) => k !== 'env' && k !== 'source'),
    );
    return new FakeHtmlOutput(this.env, run(vars, escapeHtml));
  }
}

/** The HtmlService global: files are read from the built dist/ folder. */
export class FakeHtmlService {
  readonly SandboxMode = SandboxMode;
  readonly XFrameOptionsMode = XFrameOptionsMode;

  constructor(
    private readonly env: Env,
    private readonly distDir: string | undefined,
  ) {}

  createHtmlOutput(html: unknown = ''): FakeHtmlOutput {
    this.env.call('HtmlService', 'HtmlService.createHtmlOutput');
    const content =
      html instanceof FakeBlob ? html.getDataAsString() : String(html);
    return new FakeHtmlOutput(this.env, content);
  }

  createHtmlOutputFromFile(filename: string): FakeHtmlOutput {
    this.env.call('HtmlService', 'HtmlService.createHtmlOutputFromFile');
    return new FakeHtmlOutput(this.env, this.file(filename));
  }

  createTemplate(html: unknown): FakeHtmlTemplate {
    this.env.call('HtmlService', 'HtmlService.createTemplate');
    return new FakeHtmlTemplate(
      this.env,
      html instanceof FakeBlob ? html.getDataAsString() : String(html),
    );
  }

  createTemplateFromFile(filename: string): FakeHtmlTemplate {
    this.env.call('HtmlService', 'HtmlService.createTemplateFromFile');
    return new FakeHtmlTemplate(this.env, this.file(filename));
  }

  private file(filename: string): string {
    const name = String(filename).replace(/\.html$/, '');
    const path =
      this.distDir === undefined
        ? undefined
        : join(this.distDir, `${name}.html`);
    if (!path || !existsSync(path))
      this.env.fail(`No HTML file named ${name} was found.`);
    return readFileSync(path, 'utf8');
  }
}
