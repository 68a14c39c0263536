// Compiles a JSON Schema (draft 2020-12) with ajv in strict mode, then
// validates instances against it: node compile.mjs SCHEMA [+VALID.json]
// [-INVALID.json]... Prints one line per check; exits 1 on the first failure.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, ...instances] = process.argv.slice(2);
const ajv = new Ajv2020({ strict: true, allErrors: true });
let validate;
try {
  validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
} catch (e) {
  console.error(`${schemaPath}: ajv refuses the schema: ${e.message}`);
  process.exit(1);
}
console.log(`${schemaPath}: compiles`);
for (const arg of instances) {
  const want = arg[0] === "+";
  const path = arg.slice(1);
  const got = validate(JSON.parse(readFileSync(path, "utf8")));
  if (got !== want) {
    console.error(`${path}: valid = ${got}, want ${want}: ${ajv.errorsText(validate.errors)}`);
    process.exit(1);
  }
  console.log(`${path}: valid = ${got}`);
}
