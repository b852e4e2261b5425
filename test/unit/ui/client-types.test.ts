/**
 * The sidebar's browser code is type-checked against the server module itself: calling a
 * server function that was renamed, or with the wrong arguments, fails here.
 */
import {join} from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '../../..');

it('type-checks the sidebar client (tsconfig.ui.json) against src/index.ts', () => {
  const configPath = join(root, 'tsconfig.ui.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map(d => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(problems).toEqual([]);
}, 30000);
