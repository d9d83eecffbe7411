'use strict';
// Adds up Jest's JSON reports into the one closing line CI reads: "N passed, N failed".
const { readFileSync } = require('fs');

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests + report.numRuntimeErrorTestSuites;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(`${file.split('/').pop()}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
