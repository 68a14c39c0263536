-- Drives skillc's language server from Neovim's own LSP client, headless,
-- for lsp/nvim_test.go: opens the skill, waits for the diagnostics, applies
-- a code action, follows a definition, asks for hover, the outline,
-- completion and a rename, and writes what it saw to $OUT_FILE as JSON.
-- Neovim 0.7 (Debian 12) has vim.lsp.start_client only; later versions
-- have vim.lsp.start, used when present.
vim.o.swapfile = false

local bin, file, out = os.getenv('SKILLC_BIN'), os.getenv('SKILL_FILE'), os.getenv('OUT_FILE')
local result = {}

local function diags(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code
    if code == nil and d.user_data and d.user_data.lsp then code = d.user_data.lsp.code end
    table.insert(list, {lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = code, message = d.message})
  end
  table.sort(list, function(a, b) return a.lnum < b.lnum or a.lnum == b.lnum and a.col < b.col end)
  return list
end

-- cursor_on puts the cursor on the first occurrence of text on 0-based
-- line lnum, after byte column from (0-based).
local function cursor_on(buf, lnum, text, from)
  local line = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, true)[1]
  local s = line:find(text, (from or 0) + 1, true)
  assert(s, 'no "' .. text .. '" on line ' .. lnum .. ': ' .. line)
  vim.api.nvim_win_set_cursor(0, {lnum + 1, s - 1})
end

local function line_with(buf, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, true)) do
    if l:find(text, 1, true) then return i - 1 end
  end
  error('no line with ' .. text)
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local config = {name = 'skillc', cmd = {bin, 'lsp'}, root_dir = vim.fn.fnamemodify(file, ':h')}
  local id
  if vim.lsp.start then
    id = vim.lsp.start(config)
  else
    id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, id)
  end
  local client = vim.lsp.get_client_by_id(id)
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20), 'no diagnostics within 20 s')
  result.encoding = client.offset_encoding
  result.diagnostics = diags(buf)

  -- The code action of the unknown target after non-ASCII text.
  local lnum = line_with(buf, 'oui')
  cursor_on(buf, lnum, 'clarfy')
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  params.context = {diagnostics = {}}
  local res = client.request_sync('textDocument/codeAction', params, 10000, buf)
  assert(res and not res.err, 'codeAction: ' .. vim.inspect(res))
  result.actions = {}
  local applied = false
  for _, a in ipairs(res.result or {}) do
    table.insert(result.actions, {title = a.title, kind = a.kind})
    if not applied and a.kind == 'quickfix' then
      vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding)
      applied = true
    end
  end
  result.fixed_line = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, true)[1]
  local before = #result.diagnostics
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) < before end, 20), 'diagnostics did not update after the fix')
  result.diagnostics_after = diags(buf)

  -- Definition from the fixed target to its step.
  cursor_on(buf, lnum, 'clarify', result.fixed_line:find(':', 1, true))
  res = client.request_sync('textDocument/definition', vim.lsp.util.make_position_params(0, client.offset_encoding), 10000, buf)
  assert(res and not res.err and res.result, 'definition: ' .. vim.inspect(res))
  local loc = res.result
  if vim.tbl_islist(loc) then loc = loc[1] end
  vim.lsp.util.jump_to_location(loc, client.offset_encoding)
  local cur = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_buf_get_lines(buf, cur[1] - 1, cur[1], true)[1]
  result.definition = {lnum = cur[1] - 1, col = cur[2], text = line:sub(cur[2] + 1)}

  -- Hover on a tool with a description in the registry.
  cursor_on(buf, line_with(buf, 'tools: search_thread'), 'search_thread')
  res = client.request_sync('textDocument/hover', vim.lsp.util.make_position_params(0, client.offset_encoding), 10000, buf)
  result.hover = res and res.result and res.result.contents.value

  res = client.request_sync('textDocument/documentSymbol', {textDocument = vim.lsp.util.make_text_document_params(buf)}, 10000, buf)
  result.symbols = {}
  for _, s in ipairs(res.result or {}) do table.insert(result.symbols, s.name) end

  -- Completion of a target after "no: ".
  local nl = line_with(buf, '- no: end')
  vim.api.nvim_win_set_cursor(0, {nl + 1, #'   - no: '})
  res = client.request_sync('textDocument/completion', vim.lsp.util.make_position_params(0, client.offset_encoding), 10000, buf)
  result.completion = {}
  local items = res.result and (res.result.items or res.result) or {}
  for _, it in ipairs(items) do table.insert(result.completion, it.label) end

  -- Rename the step "clarify" from its {#clarify}.
  local cl = line_with(buf, '{#clarify}')
  cursor_on(buf, cl, 'clarify', vim.api.nvim_buf_get_lines(buf, cl, cl + 1, true)[1]:find('{#', 1, true))
  local rp = vim.lsp.util.make_position_params(0, client.offset_encoding)
  rp.newName = 'ask-user'
  res = client.request_sync('textDocument/rename', rp, 10000, buf)
  assert(res and not res.err and res.result, 'rename: ' .. vim.inspect(res))
  vim.lsp.util.apply_workspace_edit(res.result, client.offset_encoding)
  result.renamed = vim.api.nvim_buf_get_lines(buf, 0, -1, true)
end

local ok, err = pcall(run)
if not ok then result.error = tostring(err) end
local f = assert(io.open(out, 'w'))
f:write(vim.fn.json_encode(result))
f:close()
for _, c in ipairs(vim.lsp.get_active_clients()) do c.stop() end
vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
vim.cmd('qall!')
