/**
 * Arrows point down (DESIGN 2, issue 19): every import of src/, type-only ones included, goes
 * from a layer to one below it, or stays inside its own folder.
 */
import {readFileSync, readdirSync, statSync} from 'node:fs';
import {dirname, join, normalize, relative} from 'node:path';
import * as ts from 'typescript';

const SRC = join(__dirname, '..', '..', 'src');

/** Each layer, top first; a file belongs to the first whose prefix it starts with. */
const LAYERS: Array<[string, number]> = [
  ['ui/', 90],
  ['index.ts', 80],
  ['jobs/scheduled/', 75],
  ['jobs/host/', 70],
  ['jobs/history/', 60],
  ['jobs/refresh/', 50],
  ['jobs/push/', 50],
  ['jobs/create/', 50],
  ['jobs/', 40],
  ['state/', 35],
  ['sheets/', 30],
  ['rules/', 20],
  ['api/', 15],
  ['platform/', 10],
  ['text/', 0],
];

function layerOf(file: string): [string, number] {
  const found = LAYERS.find(([prefix]) => file.startsWith(prefix));
  if (!found) throw new Error(`no layer for src/${file}`);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/from\s+'(\.[^']+)'/g)].map(m => m[1]);
  return found.map(spec =>
    relative(SRC, normalize(join(dirname(file), spec))).replace(/\\/g, '/'),
  );
}

/** Source without its comments and literals (which may name Apps Script's services). */
function code(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true);
  scanner.setText(text);
  const tokens: string[] = [];
  for (
    let t = scanner.scan();
    t !== ts.SyntaxKind.EndOfFileToken;
    t = scanner.scan()
  ) {
    const literal =
      t === ts.SyntaxKind.StringLiteral ||
      t === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      (t >= ts.SyntaxKind.TemplateHead && t <= ts.SyntaxKind.TemplateTail);
    tokens.push(literal ? "''" : scanner.getTokenText());
  }
  return tokens.join(' ');
}

/**
 * Every import cycle, each once, written from its least file name round to it again: the
 * strongly connected components of the import graph (Tarjan), each walked from that file.
 */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(walk(graph, component));
  };
  for (const file of [...graph.keys()].sort()) {
    if (!index.has(file)) visit(file);
  }
  return found.sort();
}

/** A cycle through a component, from its least file back to it (the shortest way round). */
function walk(
  graph: ReadonlyMap<string, readonly string[]>,
  component: readonly string[],
): string {
  const inside = new Set(component);
  const start = [...component].sort()[0];
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(from.get(path[0])!);
        return [...path, start].join(' -> ');
      }
      if (!from.has(next)) {
        from.set(next, file);
        queue.push(next);
      }
    }
  }
  return component.join(', ');
}

describe('the layers of src/', () => {
  it('import only downwards, or within their own folder', () => {
    const upwards: string[] = [];
    for (const path of sources(SRC)) {
      const file = relative(SRC, path).replace(/\\/g, '/');
      const [from, rank] = layerOf(file);
      for (const target of importsOf(path)) {
        const [to, below] = layerOf(
          target.endsWith('.ts') ? target : `${target}.ts`,
        );
        if (to === from || below < rank) continue;
        upwards.push(`src/${file} -> src/${target}`);
      }
    }
    expect(upwards).toEqual([]);
  });

  it('import in no cycle, type-only imports included', () => {
    const graph = new Map(
      sources(SRC).map(path => [
        relative(SRC, path).replace(/\\/g, '/'),
        importsOf(path).map(t => (t.endsWith('.ts') ? t : `${t}.ts`)),
      ]),
    );
    expect(cycles(graph)).toEqual([]);
  });

  it('touch Apps Script globals only in src/platform/', () => {
    const globals =
      /\b(SpreadsheetApp|UrlFetchApp|Utilities|PropertiesService|CacheService|LockService|ScriptApp|HtmlService|DriveApp|MailApp|Session|Logger|GoogleAppsScript)\s*\./;
    const outside = sources(SRC)
      .filter(path => !relative(SRC, path).startsWith('platform'))
      .filter(path => !relative(SRC, path).startsWith('ui/client'))
      .filter(path => globals.test(code(readFileSync(path, 'utf8'))))
      .map(path => relative(SRC, path));
    expect(outside).toEqual([]);
  });
});
