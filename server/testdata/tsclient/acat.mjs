// Drives `skillc serve` over stdio with the official TypeScript MCP client
// through the ACAT flow. Run by server/tsclient_test.go:
//   node acat.mjs /path/to/skillc sqlite:/tmp/plans.db
// Exits non-zero, saying why, on the first thing that is not as expected.
// The client validates every structuredContent against the tool's output
// schema, so a passing run also checks our schemas with a second
// implementation.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, storeSpec] = process.argv.slice(2);
if (!bin || !storeSpec) {
  console.error("usage: node acat.mjs SKILLC_BINARY STORE");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: bin,
  args: ["serve", "--store", storeSpec],
  env: { ...process.env, SKILLC_USER: "ts-user", SKILLC_SESSION: "ts-session" },
  stderr: "inherit",
});
const client = new Client({ name: "skillc-ts-test", version: "1.0.0" });
await client.connect(transport);

const instructions = client.getInstructions() ?? "";
assert.ok(instructions.startsWith("# Working with a plan"), `instructions: ${instructions.slice(0, 60)}`);

const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name).sort(), ["close_plan", "make_plan", "update_plan", "view_plan"]);
for (const t of tools) assert.ok(t.outputSchema, `${t.name} has no output schema`);

const { resources } = await client.listResources();
assert.ok(resources.some((r) => r.uri === "skill://acat-reimbursement"), "no skill://acat-reimbursement resource");
const md = await client.readResource({ uri: "skill://acat-reimbursement" });
assert.match(md.contents[0].text, /# ACAT reimbursement/);

async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  const text = res.content.map((c) => c.text).join("");
  console.log(`> ${name} ${JSON.stringify(args)}\n${text}\n`);
  return { res, text, plan: res.structuredContent };
}

function statuses(plan) {
  return plan.steps.map((s) => `${s.id}=${s.status}`).join(" ");
}

let r = await call("make_plan", { skill: "acat-reimbursement" });
assert.equal(r.res.isError ?? false, false, r.text);
assert.equal(r.plan.skill, "acat-reimbursement");
assert.equal(statuses(r.plan), "1=in_progress 2=pending 3=pending 4=pending");

r = await call("update_plan", { fail: ["1"] });
assert.equal(statuses(r.plan), "1=failed 2=in_progress 3=pending 4=pending");
assert.match(r.text, /list_acat_transfers/);

r = await call("update_plan", { check: ["9"] });
assert.equal(r.res.isError, true, "an unknown step was accepted");
assert.match(r.text, /"9"/);

r = await call("update_plan", { check: ["2"] });
assert.equal(statuses(r.plan), "1=failed 2=done 3=in_progress 4=pending");

r = await call("close_plan", { note: "One transfer, credited on 3 May.", check: ["3"] });
assert.equal(r.plan.status, "completed");

r = await call("view_plan", {});
assert.equal(r.plan.status, "completed");
assert.equal(r.plan.note, "One transfer, credited on 3 May.");

await client.close();
console.log("ts client: ACAT flow ok");
