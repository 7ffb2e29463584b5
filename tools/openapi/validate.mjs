// Validates an OpenAPI document against the OpenAPI specification's own schema (@seriousme/openapi-schema-validator,
// ESM only: the gateway's jest test runs this file in a child process). Usage: node tools/openapi/validate.mjs <file>
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/openapi/validate.mjs <openapi.json>');
  process.exit(2);
}
const validator = new Validator();
const result = await validator.validate(JSON.parse(await readFile(file, 'utf8')));
if (!result.valid) {
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
console.log(`valid OpenAPI ${validator.version}`);
