-- wrk script: PATCH /leads?id=ID cycling through the lead ids in IDS_FILE (one per line), setting
-- need_summary and expected_billing_amount to new values each time, so every PATCH really writes
-- (an identical PATCH is a no-op). Usage: wrk ... -s update_lead.lua URL -- IDS_FILE RUN_TAG
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "numbered_threads.lua")

function init(args)
  ids = {}
  local file = assert(io.open(args[1], "r"), "update_lead.lua: cannot open the ids file")
  for line in file:lines() do
    if #line > 0 then ids[#ids + 1] = line end
  end
  file:close()
  assert(#ids > 0, "update_lead.lua: no ids")
  run = args[2] or "run"
  counter = 0
  -- Each thread starts at its own place in the list so threads rarely touch the same lead.
  offset = ((tid - 1) * 7919) % #ids
  send_json("PATCH")
end

function request()
  counter = counter + 1
  local id = ids[(offset + counter) % #ids + 1]
  local body = string.format(
    '{"need_summary":"updated by wrk %s-%d-%d","expected_billing_amount":%d}',
    run, tid, counter, counter)
  return wrk.format(nil, "/api/v1/external/leads?id=" .. id, nil, body)
end
