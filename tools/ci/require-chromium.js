'use strict';
// npm run test:browser drives Chromium (Debian's package; README, "Install, run, test"): say how to
// get it if missing.
const { accessSync, constants } = require('node:fs');
const path = process.env.CHROMIUM_PATH;
try {
  accessSync(path, constants.X_OK);
} catch {
  process.stderr.write(
    `test:browser needs Chromium: ${path || 'CHROMIUM_PATH'} is not executable.\n` +
      'Install it with `bash tools/ci/ensure-chromium.sh` (Debian: apt-get install chromium) or set CHROMIUM_PATH.\n',
  );
  process.exit(2);
}
