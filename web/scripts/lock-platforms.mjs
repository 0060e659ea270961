// Completes package-lock.json with the platform builds of unrs-resolver (a
// dependency of the ESLint import plugins) for other systems. The npm
// registry these machines reach serves only the Linux builds, so `npm
// install` leaves the others out of the lock, and `npm ci` then refuses the
// lock as out of step with package.json. The entries added name each
// build's system and processor, so `npm ci` skips them here without
// fetching anything. Run it after `npm install` changes the lock:
//   node scripts/lock-platforms.mjs package-lock.json
// With --check it changes nothing and fails when entries are missing (npm
// run lint runs it so).
import { readFileSync, writeFileSync } from 'node:fs';
const check = process.argv.includes('--check');
const file = process.argv.filter((a) => !a.startsWith('--'))[2];
const lock = JSON.parse(readFileSync(file, 'utf8'));
const platform = (name) => {
  const p = name.replace('@unrs/resolver-binding-', '');
  const [os, cpu, abi] = p.split('-');
  const e = { os: [os], cpu: [cpu === 'arm' ? 'arm' : cpu] };
  if (abi && /musl/.test(abi)) e.libc = ['musl'];
  else if (abi && /gnu/.test(abi)) e.libc = ['glibc'];
  return e;
};
const parent = lock.packages['node_modules/unrs-resolver'];
let added = 0;
for (const [name, version] of Object.entries(parent.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const { os, cpu, libc } = platform(name);
  lock.packages[key] = { version, cpu, dev: true, license: 'MIT', optional: true, os, ...(libc ? { libc } : {}) };
  added++;
}
if (check) {
  if (added > 0) {
    console.error(`${file}: ${added} platform builds of unrs-resolver missing; run node scripts/lock-platforms.mjs ${file}`);
    process.exit(1);
  }
  process.exit(0);
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
