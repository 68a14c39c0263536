// Drives `skillc serve --upstreams` with the official TypeScript MCP client,
// in front of real MCP servers from npm (server/testdata/upstreams), over
// stdio or over HTTP. Run by cmd/skillc/gateway_test.go:
//   node gateway.mjs CONFIG.json
// CONFIG names the binary, the store, the upstreams file, the skills
// folder, the transport, the gate, the everything server's entry point
// (to call it directly) and the folder of its pid files (to kill it
// mid-session).
// Exits non-zero, saying why, on the first thing that is not as expected.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const PLAN = ["close_plan", "make_plan", "update_plan", "view_plan"];
const serveArgs = ["serve", "--store", cfg.store, "--upstreams", cfg.upstreams, "--skills", cfg.skills];
if (cfg.gate) serveArgs.push("--gate", cfg.gate);

const t0 = Date.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// conn is one MCP client with a count of the list_changed notifications
// it received.
async function connect(name, transport) {
  const client = new Client({ name, version: "1.0.0" });
  const conn = { name, client, changed: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    conn.changed++;
  });
  await client.connect(transport);
  return conn;
}

async function names(conn) {
  const { tools } = await conn.client.listTools();
  return tools.map((t) => t.name).sort();
}

async function call(conn, name, args) {
  const res = await conn.client.callTool({ name, arguments: args });
  const text = (res.content ?? []).map((c) => c.text ?? "").join("");
  console.log(`${((Date.now() - t0) / 1000).toFixed(1)}s [${conn.name}] > ${name} ${JSON.stringify(args)}${res.isError ? " (error)" : ""}\n${text.slice(0, 400)}\n`);
  return { res, text };
}

// expectChange calls a tool and checks that the set it leaves is want and
// that list_changed came (changed true) or not.
async function expectSet(conn, before, changed, want, what) {
  for (let i = 0; i < 100 && changed && conn.changed === before; i++) await sleep(20);
  assert.equal(conn.changed > before, changed, `${what}: list_changed ${changed ? "not received" : "received"} by ${conn.name}`);
  assert.deepEqual(await names(conn), [...want].sort(), `${what}: tools/list of ${conn.name}`);
}

// The everything server called directly, to compare forwarded results.
const direct = await connect("direct", new StdioClientTransport({ command: "node", args: [cfg.everything, "stdio"], stderr: "ignore" }));

let server; // the skillc process over HTTP
let baseURL;
async function startHTTP() {
  server = spawn(cfg.bin, [...serveArgs, "--http", "127.0.0.1:0", "--user", "ts-user"], { stdio: ["ignore", "inherit", "pipe"] });
  baseURL = await new Promise((resolve, reject) => {
    let buf = "";
    server.stderr.on("data", (d) => {
      process.stderr.write(d);
      buf += d;
      const m = buf.match(/serving MCP on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`skillc serve exited ${code}`)));
  });
}

async function open(name, conversation) {
  if (cfg.transport === "http") {
    return connect(name, new StreamableHTTPClientTransport(new URL(baseURL), { requestInit: { headers: { "X-Conversation-Id": conversation } } }));
  }
  return connect(
    name,
    new StdioClientTransport({
      command: cfg.bin,
      args: serveArgs,
      env: { ...process.env, SKILLC_USER: "ts-user", SKILLC_SESSION: conversation },
      stderr: "inherit",
    }),
  );
}

if (cfg.transport === "http") await startHTTP();
const a = await open("a", "conv-a");

// Names: with the remote copy of everything beside the local one, their
// tools clash and both are offered as SERVER__tool.
const E = cfg.clash ? (t) => `everything__${t}` : (t) => t;
const all = await names(a);
for (const t of [...PLAN, E("echo"), E("get-sum"), "read_text_file", "list_allowed_directories"]) assert.ok(all.includes(t), `no ${t} before a plan: ${all}`);
if (cfg.clash) assert.ok(all.includes("remote__echo") && !all.includes("echo"), `clash not qualified: ${all}`);

// A forwarded call's result is the upstream's, intact.
for (const [tool, args] of [["echo", { message: "héllo" }], ["get-sum", { a: 2, b: 40 }], ["get-tiny-image", {}], ["get-structured-content", { location: "New York" }]]) {
  const via = await call(a, E(tool), args);
  const dir = await direct.client.callTool({ name: tool, arguments: args });
  assert.deepEqual(via.res, dir, `${tool}: forwarded result differs from the upstream's`);
}

// make_plan from the skill: step 1 is in progress, with its tool.
let n = a.changed;
let r = await call(a, "make_plan", { skill: "file-report" });
assert.equal(r.res.isError ?? false, false, r.text);
await expectSet(a, n, true, [...PLAN, "list_allowed_directories"], "after make_plan");

// A tool outside the set: refused under enforce, forwarded under list.
r = await call(a, "read_text_file", { path: cfg.note });
if (cfg.gate === "enforce") {
  assert.equal(r.res.isError, true, "enforce let a call outside the set through");
  assert.match(r.text, /step 1 \(Find the shared folder\.\) is in progress/);
  assert.match(r.text, /list_allowed_directories/);
  assert.match(r.text, /update_plan/);
} else {
  assert.equal(r.res.isError ?? false, false, r.text);
  assert.match(r.text, /the note says hi/);
}
r = await call(a, "list_allowed_directories", {});
assert.equal(r.res.isError ?? false, false, r.text);

n = a.changed;
await call(a, "update_plan", { check: ["1"] });
await expectSet(a, n, true, [...PLAN, "read_text_file"], "after step 1");
r = await call(a, "read_text_file", { path: cfg.note });
assert.equal(r.res.isError ?? false, false, r.text);
assert.match(r.text, /the note says hi/);

// view_plan changes nothing: no notification.
n = a.changed;
await call(a, "view_plan", {});
await expectSet(a, n, false, [...PLAN, "read_text_file"], "after view_plan");

// Step 2 fails: step 4 recommends no tool, so the skill's allowed-tools
// are the set.
n = a.changed;
await call(a, "update_plan", { fail: ["2"] });
const allowed = [...PLAN, "list_allowed_directories", "read_text_file", ...(cfg.clash ? ["everything__echo", "remote__echo"] : ["echo"])];
await expectSet(a, n, true, allowed, "at step 4 (no tools)");

// A second conversation at the same time, with its own plan and set.
const b = await open("b", "conv-b");
assert.deepEqual(await names(b), all, "conversation b before its plan");
let nb = b.changed;
n = a.changed;
await call(b, "make_plan", { title: "Add", steps: [{ goal: "Add two numbers.", recommended_tools: [cfg.clash ? "remote__get-sum" : "get-sum"] }] });
await expectSet(b, nb, true, [...PLAN, cfg.clash ? "remote__get-sum" : "get-sum"], "conversation b after make_plan");
await expectSet(a, n, false, allowed, "conversation a while b planned");
r = await call(b, cfg.clash ? "remote__get-sum" : "get-sum", { a: 1, b: 2 });
assert.match(r.text, /3/);

// The everything server is killed in the middle of a call: that call is
// a tool error, the gateway keeps serving, and the next call reconnects.
if (cfg.piddir) {
  // The upstream's wrapper writes its pid under the conversation's name
  // (stdio: each conversation is a skillc process with its own upstreams).
  const pidfile = `${cfg.piddir}/${cfg.transport === "http" ? "http" : "conv-a"}.pid`;
  await call(a, "make_plan", { title: "Slow", steps: [{ goal: "Run the long operation.", recommended_tools: [E("trigger-long-running-operation"), E("echo")] }] });
  const slow = call(a, E("trigger-long-running-operation"), { duration: 10, steps: 5 });
  await sleep(1500);
  const pid = Number(readFileSync(pidfile, "utf8").trim());
  process.kill(pid, "SIGKILL");
  r = await slow;
  assert.equal(r.res.isError, true, "a call whose upstream was killed did not fail");
  assert.match(r.text, /upstream "everything"/);
  r = await call(a, "view_plan", {});
  assert.equal(r.res.isError ?? false, false, "the gateway stopped serving after an upstream died");
  let ok = false;
  for (let i = 0; i < 40 && !ok; i++) {
    r = await call(a, E("echo"), { message: "again" });
    ok = !r.res.isError;
    if (!ok) await sleep(250);
  }
  assert.ok(ok, `the upstream was not reconnected: ${r.text}`);
  assert.match(r.text, /again/);
  assert.notEqual(Number(readFileSync(pidfile, "utf8").trim()), pid, "no new upstream process");
}

// close_plan: no active plan, every tool again.
n = a.changed;
await call(a, "close_plan", { note: "done" });
await expectSet(a, n, true, all, "after close_plan");

await a.client.close();
await b.client.close();
await direct.client.close();
if (server) server.kill("SIGTERM");
console.log(`${((Date.now() - t0) / 1000).toFixed(1)}s ts client: gateway over ${cfg.transport} (gate ${cfg.gate || "list"}) ok`);
