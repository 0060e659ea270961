// Writes the ZIP list (README.md) from the zipcodes package's codes.js:
// the 50 states and DC only, one "ZIP<TAB>STATE<TAB>City" line per ZIP, sorted.
import { createRequire } from 'node:module';
import path from 'node:path';

const STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '),
);
const { codes } = createRequire(import.meta.url)(path.resolve(process.argv[2]));
const rows = Object.entries(codes)
  .filter(([zip, v]) => /^\d{5}$/.test(zip) && STATES.has(v.state) && v.city)
  .map(([zip, v]) => `${zip}\t${v.state}\t${v.city}`)
  .sort();
process.stdout.write(rows.join('\n') + '\n');
