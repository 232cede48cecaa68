-- Neovim's built-in LSP client against `activity-site lsp`: open a broken
-- data file, wait for the diagnostics the server publishes, print them one
-- per line (`code line:col severity message`) and quit; exit 1 when none
-- came. Run headless by .ci/e2e-lsp.sh, with ACTIVITY_SITE_BIN, E2E_ROOT and
-- E2E_FILE in the environment; with E2E_SNIPPET (a Lua file: the documented
-- Neovim snippet), that snippet starts the client as it would for a user.
-- Works with Neovim 0.7 (Debian 12) and later.
local bin = os.getenv("ACTIVITY_SITE_BIN")
local root = os.getenv("E2E_ROOT")
local file = os.getenv("E2E_FILE")

local function finish(code, message)
  io.stdout:write(message .. "\n")
  io.stdout:flush()
  vim.cmd((code == 0 and "qall!") or "cquit! " .. code)
end

local snippet = os.getenv("E2E_SNIPPET")
local buf
if snippet and snippet ~= "" then
  -- The documented snippet, as a user's init.lua: it finds the root and
  -- starts `activity-site lsp` (from PATH) when a JSON file opens.
  vim.cmd("filetype on")
  dofile(snippet)
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  buf = vim.api.nvim_get_current_buf()
  local started = vim.wait(30000, function()
    return #vim.lsp.get_active_clients() > 0
  end, 50)
  if not started then
    finish(2, "the documented snippet started no client within 30 s")
  end
else
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  buf = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({
    name = "activity-site",
    cmd = { bin, "lsp", "--root", root, "--now", "2026-10-15T12:00:00" },
    root_dir = root,
  })
  if not client then
    finish(2, "the client did not start")
  end
  vim.lsp.buf_attach_client(buf, client)
end

local got = vim.wait(30000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)
if not got then
  finish(1, "no diagnostics within 30 s")
end
local lines = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local severity = vim.diagnostic.severity[d.severity] or tostring(d.severity)
  table.insert(lines, string.format("%s %d:%d %s %s", tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)), d.lnum + 1, d.col + 1, severity, d.message))
end
table.sort(lines)
for _, c in ipairs(vim.lsp.get_active_clients()) do
  vim.lsp.stop_client(c.id)
end
finish(0, table.concat(lines, "\n"))
