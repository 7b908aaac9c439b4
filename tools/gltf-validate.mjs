#!/usr/bin/env node
// Validates each .gltf/.glb given with the Khronos glTF-Validator (tools/node_modules, installed by
// tools/install-deps.sh): resources (.bin, PNG) resolve beside the file. Prints every error and
// warning with its JSON pointer; `--json` prints one summary object a line. Exit 1 on any error.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const files = args.filter((a) => a !== '--json');
if (files.length === 0) {
  console.error('usage: node tools/gltf-validate.mjs [--json] FILE.gltf|FILE.glb...');
  process.exit(2);
}

const severities = ['error', 'warning', 'info', 'hint'];
let failed = false;
for (const file of files) {
  let report;
  try {
    const data = new Uint8Array(await readFile(file));
    const dir = path.dirname(file);
    report = await validator.validateBytes(data, {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: async (uri) => new Uint8Array(await readFile(path.join(dir, decodeURIComponent(uri)))),
    });
  } catch (e) {
    console.error(`${file}: cannot validate: ${e}`);
    failed = true;
    continue;
  }
  const issues = report.issues;
  if (issues.numErrors > 0) failed = true;
  const shown = issues.messages.filter((m) => m.severity <= 1);
  if (asJson) {
    console.log(JSON.stringify({
      file, errors: issues.numErrors, warnings: issues.numWarnings, infos: issues.numInfos, hints: issues.numHints,
      messages: shown.map((m) => ({ severity: severities[m.severity], code: m.code, pointer: m.pointer ?? null, message: m.message })),
    }));
    continue;
  }
  console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos`);
  for (const m of shown) {
    console.log(`  ${severities[m.severity]} ${m.code}${m.pointer ? ' at ' + m.pointer : ''}: ${m.message}`);
  }
}
process.exit(failed ? 1 : 0);
