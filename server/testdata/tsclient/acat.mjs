// Drives `skillc serve` over stdio with the official TypeScript MCP client
// through the ACAT flow and a bounded retry loop. Run by server/tsclient_test.go:
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

// After a compaction a host re-reads the plan from plan://current: the
// checklist update_plan just returned.
assert.ok(resources.some((res) => res.uri === "plan://current"), "no plan://current resource");
const current = await client.readResource({ uri: "plan://current" });
assert.equal(current.contents[0].mimeType, "text/plain");
assert.equal(current.contents[0].text, r.text);

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

// FORMAT 6.5's retry loop, in the agent's own steps: step 4 goes back to
// step 2 on failure at most 3 times. The rounds and the bound travel in
// structuredContent, which the client checks against the output schema.
r = await call("make_plan", {
  title: "Deploy",
  steps: [{ goal: "Build." }, { goal: "Deploy." }, { goal: "Smoke test." }, { goal: "Check health.", next_on_failure: "2" }, { goal: "Announce." }],
});
assert.equal(r.res.isError, true, "an unbounded loop was accepted");
assert.match(r.text, /set failure_bound on step "4"/);

r = await call("make_plan", {
  title: "Deploy",
  steps: [
    { goal: "Build." },
    { goal: "Deploy." },
    { goal: "Smoke test." },
    { goal: "Check health.", next_on_failure: "2", failure_bound: 3, wait_for: "the on-call engineer's go-ahead" },
    { goal: "Announce." },
  ],
});
assert.equal(r.res.isError ?? false, false, r.text);
assert.equal(r.plan.steps[3].failure_bound, 3);
r = await call("update_plan", { check: ["1", "2", "3"] });
assert.match(r.text, /waits for: the on-call engineer's go-ahead/);
for (let round = 1; round <= 3; round++) {
  r = await call("update_plan", { fail: ["4"] });
  assert.equal(statuses(r.plan), "1=done 2=in_progress 3=pending 4=pending 5=pending");
  assert.equal(r.plan.rounds["4:failure"], round);
  assert.match(r.text, new RegExp(`\\[>\\] 2  Deploy\\.  \\(round ${round} of 3\\)`));
  await call("update_plan", { check: ["2", "3"] });
}
r = await call("update_plan", { fail: ["4"] });
assert.equal(statuses(r.plan), "1=done 2=done 3=done 4=failed 5=pending");
assert.match(r.text, /the path reached fail/);
r = await call("close_plan", { note: "unhealthy after three redeploys" });
assert.equal(r.plan.status, "failed");

await client.close();
console.log("ts client: ACAT flow and retry loop ok");
