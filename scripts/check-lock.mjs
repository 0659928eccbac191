// Fails when package-lock.json does not match package.json, as `npm ci` would (a dependency
// added, removed or bumped without its lock entries, or a lock written without other platforms'
// optional packages). `npm ci --dry-run` resolves the tree from the lock file and touches nothing.
import { spawnSync } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = spawnSync(npm, ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
  encoding: 'utf8',
  shell: process.platform === 'win32',
});
if (run.status !== 0) {
  const lines = `${run.stdout ?? ''}${run.stderr ?? ''}`
    .split('\n')
    .filter((line) => /Missing:|Invalid:|in sync|ERR|error/i.test(line))
    .slice(0, 12);
  console.error(lines.join('\n'));
  console.error('\npackage-lock.json does not match package.json: run `npm install` and commit package-lock.json.');
  process.exit(1);
}
console.log('package-lock.json matches package.json');
